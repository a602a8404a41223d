import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { PermissionService } from '../common/auth/permission.service';
import { Principal } from '../common/auth/principal';
import { Page } from '../common/sql/paginate';
import { inOneStatement, inTransaction } from '../common/sql/transaction';
import { whenDuplicate } from '../common/errors/db-errors';
import { invalid, invalidAttribute, notFound, Violations, taken } from '../common/errors/domain-error';
import { ParsedBody } from '../common/jsonapi/body';
import { PageParams } from '../common/jsonapi/pagination';
import { newId } from '../common/ids';
import type { OrganizationEntity } from '../organizations/entities/organization.entity';
import { OrganizationsService } from '../organizations/organizations.service';
import { PolicyKind } from '../policies/policy-kinds';
import { BlobStore } from '../storage/blob-store';
import { WorkspacesService } from '../workspaces/workspaces.service';
import { CreatePolicySetAttributes, UpdatePolicySetAttributes } from './dto/policy-set-attributes.dto';
import { PolicySetEntity } from './entities/policy-set.entity';
import { PolicySetMembers } from './policy-set-members';
import {
  editionViolations,
  FREE_EDITION,
  freePolicySetsLimit,
  LATEST,
  policySetViolations,
  readVcsRepo,
  VcsRepo,
} from './policy-set-rules';
import { PolicySetPresenter } from './policy-set.presenter';
import { MemberRelation, PolicySetsRepository } from './policy-sets.repository';
import { PolicySetView } from './policy-sets.serializer';
import { PolicyToolVersionValidator } from './policy-tool-version.validator';

export interface PolicySetListQuery {
  search?: string;
  kind?: PolicyKind;
  versioned?: boolean;
}

type Body = ParsedBody<CreatePolicySetAttributes | UpdatePolicySetAttributes>;

/** Where a set's archives live in the blob store; deleting the set removes the whole prefix. */
export function policySetBlobPrefix(setId: string): string {
  return `policy-sets/${setId}`;
}

function vcsOf(set: PolicySetEntity): VcsRepo | null {
  if (set.vcsIdentifier === null) return null;
  return {
    identifier: set.vcsIdentifier,
    branch: set.vcsBranch,
    oauthTokenId: set.vcsOauthTokenId,
    vcsAppInstallationId: set.vcsAppInstallationId,
    ingressSubmodules: set.vcsIngressSubmodules,
  };
}

function applyVcs(set: PolicySetEntity, vcs: VcsRepo | null): void {
  set.vcsIdentifier = vcs?.identifier ?? null;
  set.vcsBranch = vcs?.branch ?? null;
  set.vcsOauthTokenId = vcs?.oauthTokenId ?? null;
  set.vcsAppInstallationId = vcs?.vcsAppInstallationId ?? null;
  set.vcsIngressSubmodules = vcs?.ingressSubmodules ?? false;
}

@Injectable()
export class PolicySetsService {
  constructor(
    private readonly repo: PolicySetsRepository,
    private readonly presenter: PolicySetPresenter,
    private readonly members: PolicySetMembers,
    private readonly permissions: PermissionService,
    private readonly organizations: OrganizationsService,
    private readonly workspaces: WorkspacesService,
    private readonly toolVersions: PolicyToolVersionValidator,
    private readonly blobs: BlobStore,
    @InjectDataSource() private readonly ds: DataSource,
  ) {}

  /** The set if the principal may manage policies in its organization; otherwise 404. */
  async requireManageable(p: Principal, id: string): Promise<PolicySetEntity> {
    const set = await this.repo.findById(id);
    if (!set) throw notFound();
    await this.permissions.requireFlag(p, set.organizationId, 'manage-policies');
    return set;
  }

  async show(p: Principal, id: string): Promise<PolicySetView> {
    return this.presenter.view(await this.requireManageable(p, id));
  }

  async list(
    p: Principal,
    orgName: string,
    query: PolicySetListQuery,
    page: PageParams,
  ): Promise<Page<PolicySetView>> {
    const org = await this.organizations.requireVisible(p, orgName);
    await this.permissions.requireFlag(p, org.id, 'manage-policies');
    const result = await this.repo.list({ organizationId: org.id, ...query }, page);
    return { ...result, items: await this.presenter.views(result.items) };
  }

  /**
   * The sets enforced on a workspace. Reading the workspace is enough: which rules apply to it is
   * part of what a workspace reader needs to know.
   */
  async effective(p: Principal, workspaceId: string, page: PageParams): Promise<Page<PolicySetView>> {
    const ws = await this.workspaces.requireAccess(p, workspaceId, 'read');
    const result = await this.repo.listEffective(ws.organizationId, ws.id, ws.projectId, page);
    return { ...result, items: await this.presenter.views(result.items) };
  }

  async create(
    p: Principal,
    orgName: string,
    body: ParsedBody<CreatePolicySetAttributes>,
  ): Promise<PolicySetView> {
    const org = await this.organizations.requireVisible(p, orgName);
    await this.permissions.requireFlag(p, org.id, 'manage-policies');
    const a = body.attributes;
    const kind = a.kind ?? 'framework_a';
    const violations = new Violations();
    const refs = await this.resolveRelationships(org, kind, body, true, violations);
    const vcsRepo = readVcsRepo(a['vcs-repo']);
    const draft = {
      kind,
      global: a.global ?? false,
      overridable: a.overridable ?? false,
      agentEnabled: a['agent-enabled'] ?? false,
      policyToolVersion: a['policy-tool-version'] ?? LATEST,
      vcsRepo,
      policiesPath: a['policies-path'] ?? null,
      policyCount: refs.policies?.length ?? 0,
      projectCount: refs.projects?.length ?? 0,
      workspaceCount: refs.workspaces?.length ?? 0,
    };
    policySetViolations(draft, violations);
    editionViolations(
      org.edition,
      { vcsRepoGiven: vcsRepo !== null, policyCount: draft.policyCount },
      violations,
    );
    violations.throwIfAny();
    const now = new Date();
    const set = Object.assign(new PolicySetEntity(), {
      id: newId('polset'),
      organizationId: org.id,
      name: a.name,
      description: a.description ?? null,
      global: draft.global,
      kind,
      overridable: draft.overridable,
      agentEnabled: draft.agentEnabled,
      policyToolVersion: draft.policyToolVersion,
      policiesPath: draft.policiesPath,
      uploadVersioned: false,
      createdAt: now,
      updatedAt: now,
    });
    applyVcs(set, vcsRepo);
    await this.saveUnique(async (manager) => {
      await this.organizations.lockForChildWrites(manager, org.id);
      if (
        org.edition === 'free' &&
        (await this.repo.countInOrganization(manager, org.id)) >= FREE_EDITION.policySets
      ) {
        throw invalid(freePolicySetsLimit(), '/data');
      }
      if (kind === 'framework_b') {
        set.policyToolVersion = await this.toolVersions.assertPinnable(set.policyToolVersion, manager);
      }
      await this.repo.insert(manager, set);
      for (const [relation, ids] of Object.entries(refs) as [MemberRelation, string[] | undefined][]) {
        if (ids) await this.repo.addMembers(manager, relation, set.id, ids, now);
      }
    });
    return this.presenter.view(set);
  }

  async update(
    p: Principal,
    id: string,
    body: ParsedBody<UpdatePolicySetAttributes>,
  ): Promise<PolicySetView> {
    const set = await this.requireManageable(p, id);
    const org = await this.organizations.requireById(set.organizationId);
    const current = await this.presenter.view(set);
    const a = body.attributes;
    const violations = new Violations();
    if (a.kind !== undefined && a.kind !== set.kind) {
      violations.attribute('kind', 'cannot be changed after the policy set is created');
    }
    const global = a.global ?? set.global;
    const vcsRepo = body.has('vcs-repo') ? readVcsRepo(a['vcs-repo']) : vcsOf(set);
    // Removing the repository removes its sub-directory too, unless the request says otherwise.
    const policiesPath = body.has('policies-path')
      ? (a['policies-path'] ?? null)
      : vcsRepo
        ? set.policiesPath
        : null;
    const refs = await this.resolveRelationships(org, set.kind, body, false, violations);
    // Switching to global drops project and workspace attachments that the request does not name.
    const projects = refs.projects ?? (global ? [] : current.projectIds);
    const workspaces = refs.workspaces ?? (global ? [] : current.workspaceIds);
    const draft = {
      kind: set.kind,
      global,
      overridable: a.overridable ?? set.overridable,
      // Contract rule 1: these two are listed with defaults, so an update that omits them resets them.
      agentEnabled: a['agent-enabled'] ?? false,
      policyToolVersion: a['policy-tool-version'] ?? LATEST,
      vcsRepo,
      policiesPath,
      policyCount: current.policyIds.length,
      projectCount: projects.length,
      workspaceCount: workspaces.length,
    };
    policySetViolations(draft, violations);
    editionViolations(org.edition, { vcsRepoGiven: body.has('vcs-repo') && vcsRepo !== null }, violations);
    violations.throwIfAny();
    const previousToolVersion = set.policyToolVersion;
    if (a.name !== undefined) set.name = a.name;
    if (body.has('description')) set.description = a.description ?? null;
    set.global = global;
    set.overridable = draft.overridable;
    set.agentEnabled = draft.agentEnabled;
    set.policyToolVersion = draft.policyToolVersion;
    set.policiesPath = policiesPath;
    applyVcs(set, vcsRepo);
    const now = new Date();
    set.updatedAt = now;
    await this.saveUnique(async (manager) => {
      await this.lockExisting(manager, set.id);
      if (vcsRepo && (await this.repo.countMembers(manager, 'policies', set.id)) > 0) {
        throw invalidAttribute('vcs-repo', 'cannot be used together with the policies relationship');
      }
      if (set.kind === 'framework_b' && set.policyToolVersion !== previousToolVersion) {
        set.policyToolVersion = await this.toolVersions.assertPinnable(set.policyToolVersion, manager);
      }
      await this.repo.update(manager, set);
      if (refs.projects || global) await this.repo.replaceMembers(manager, 'projects', set.id, projects, now);
      if (refs.workspaces || global)
        await this.repo.replaceMembers(manager, 'workspaces', set.id, workspaces, now);
      if (refs['workspace-exclusions']) {
        await this.repo.replaceMembers(
          manager,
          'workspace-exclusions',
          set.id,
          refs['workspace-exclusions'],
          now,
        );
      }
    });
    return this.presenter.view(set);
  }

  /** Deletes the set, its attachments and versions; the policies themselves stay. */
  async delete(p: Principal, id: string): Promise<void> {
    const set = await this.requireManageable(p, id);
    await inOneStatement(this.ds, (manager) => this.repo.delete(manager, set.id));
    await this.blobs.deletePrefix(policySetBlobPrefix(set.id));
  }

  /** Locks the set's row for the rest of the transaction; 404 when it was deleted meanwhile. */
  async lockExisting(manager: EntityManager, id: string): Promise<PolicySetEntity> {
    const set = await this.repo.findLocked(manager, id);
    if (!set) throw notFound();
    return set;
  }

  /**
   * The relationships a create or update names, resolved against the organization. Create reads
   * `policies`; update does not (policies change through their relationship endpoints).
   */
  private async resolveRelationships(
    org: OrganizationEntity,
    kind: PolicyKind,
    body: Body,
    withPolicies: boolean,
    violations: Violations,
  ): Promise<Partial<Record<MemberRelation, string[]>>> {
    const names: [MemberRelation, string][] = [
      ['projects', 'projects'],
      ['workspaces', 'workspaces'],
      ['workspace-exclusions', 'workspaces'],
    ];
    if (withPolicies) names.unshift(['policies', 'policies']);
    const out: Partial<Record<MemberRelation, string[]>> = {};
    for (const [relation, type] of names) {
      const refs = body.toMany(relation, type);
      if (refs === undefined) continue;
      const pointer = `/data/relationships/${relation}/data`;
      out[relation] = await this.members.resolve(relation, org.id, kind, refs, pointer, violations);
    }
    return out;
  }

  private async saveUnique(work: (manager: EntityManager) => Promise<void>): Promise<void> {
    await whenDuplicate(
      () => inTransaction(this.ds, work),
      () => taken('name'),
    );
  }
}
