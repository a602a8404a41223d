import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { Readable } from 'node:stream';
import { DataSource, EntityManager } from 'typeorm';
import { PermissionService } from '../common/auth/permission.service';
import { Principal } from '../common/auth/principal';
import { Page } from '../common/sql/paginate';
import { inOneStatement, inTransaction } from '../common/sql/transaction';
import { whenDuplicate } from '../common/errors/db-errors';
import { invalidAttribute, notFound, Violations, taken } from '../common/errors/domain-error';
import { ParsedBody } from '../common/jsonapi/body';
import { ResourceObject } from '../common/jsonapi/document';
import { PageParams } from '../common/jsonapi/pagination';
import { newId } from '../common/ids';
import { AppConfig } from '../config/app-config';
import { OrganizationsService } from '../organizations/organizations.service';
import { BlobStore, tooLarge } from '../storage/blob-store';
import { CreatePolicyAttributes, requestedLevel, UpdatePolicyAttributes } from './dto/policy-attributes.dto';
import { PolicyEntity } from './entities/policy.entity';
import { PoliciesRepository } from './policies.repository';
import { PolicyView, serializePolicy } from './policies.serializer';
import { ENFORCEMENT_LEVELS, EnforcementLevel, PolicyKind } from './policy-kinds';
import { PolicySetMemberships } from './policy-set-memberships';

export interface PolicyListQuery {
  search?: string;
  kind?: PolicyKind;
}

/**
 * The rules that tie `enforcement-level` and `query` to the policy's kind, one violation per
 * failure. `levelAttribute` is where the level came from (the legacy `enforce` names it too).
 */
export function policyViolations(
  kind: PolicyKind,
  enforcementLevel: string,
  query: string | null,
  levelAttribute: 'enforcement-level' | 'enforce' = 'enforcement-level',
): Violations {
  const violations = new Violations();
  const levels: readonly string[] = ENFORCEMENT_LEVELS[kind];
  if (!levels.includes(enforcementLevel)) {
    violations.attribute(levelAttribute, `is not included in the list for ${kind}: ${levels.join(', ')}`);
  }
  if (kind === 'framework_b' && !query) {
    violations.attribute('query', "can't be blank for framework_b policies");
  }
  if (kind === 'framework_a' && query) {
    violations.attribute('query', 'is only valid for framework_b policies');
  }
  return violations;
}

/** Every file of a policy lives under this prefix. */
export const policyBlobPrefix = (policyId: string) => `policies/${policyId}`;
/** Where a policy's current code lives (each upload replaces it). */
export const policyCodeKey = (policyId: string) => `${policyBlobPrefix(policyId)}/code`;
const codeKey = policyCodeKey;

@Injectable()
export class PoliciesService {
  constructor(
    private readonly repo: PoliciesRepository,
    private readonly memberships: PolicySetMemberships,
    private readonly permissions: PermissionService,
    private readonly organizations: OrganizationsService,
    private readonly blobs: BlobStore,
    private readonly config: AppConfig,
    @InjectDataSource() private readonly ds: DataSource,
  ) {}

  /** The policy if the principal may manage policies in its organization; otherwise 404. */
  async requireManageable(p: Principal, id: string): Promise<PolicyEntity> {
    const policy = await this.repo.findById(id);
    if (!policy) throw notFound();
    await this.permissions.requireFlag(p, policy.organizationId, 'manage-policies');
    return policy;
  }

  /** Policies by id, no permission check: for the policy-sets module, which checks rights itself. */
  findByIds(ids: string[], manager?: EntityManager): Promise<PolicyEntity[]> {
    return this.repo.findByIds([...new Set(ids)], manager);
  }

  /** Serialized policies for `included` arrays; callers have already checked manage-policies. */
  async resources(ids: string[]): Promise<ResourceObject[]> {
    const policies = await this.findByIds(ids);
    return (await this.views(policies)).map(serializePolicy);
  }

  async show(p: Principal, id: string): Promise<PolicyView> {
    const [view] = await this.views([await this.requireManageable(p, id)]);
    return view;
  }

  async list(
    p: Principal,
    orgName: string,
    query: PolicyListQuery,
    page: PageParams,
  ): Promise<Page<PolicyView>> {
    const org = await this.organizations.requireVisible(p, orgName);
    await this.permissions.requireFlag(p, org.id, 'manage-policies');
    const result = await this.repo.list({ organizationId: org.id, ...query }, page);
    const setIds = await this.memberships.setIdsOf(result.items.map((x) => x.id));
    return {
      ...result,
      items: result.items.map((policy) => ({
        policy,
        organizationName: org.name,
        policySetIds: setIds.get(policy.id) ?? [],
      })),
    };
  }

  async create(p: Principal, orgName: string, body: ParsedBody<CreatePolicyAttributes>): Promise<PolicyView> {
    const org = await this.organizations.requireVisible(p, orgName);
    await this.permissions.requireFlag(p, org.id, 'manage-policies');
    const attrs = body.attributes;
    const kind = attrs.kind ?? 'framework_a';
    const query = attrs.query ?? null;
    // The DTO requires one of the two forms, so a level is always there.
    const { level, attribute } = requestedLevel(attrs) ?? { level: '', attribute: 'enforcement-level' };
    policyViolations(kind, level, query, attribute).throwIfAny();
    const now = new Date();
    const policy = Object.assign(new PolicyEntity(), {
      id: newId('pol'),
      organizationId: org.id,
      name: attrs.name,
      description: attrs.description ?? null,
      kind,
      enforcementLevel: level as EnforcementLevel,
      query,
      codeSize: null,
      codeSha256: null,
      createdAt: now,
      updatedAt: now,
    });
    await this.saveUnique((manager) => this.repo.insert(manager, policy));
    return { policy, organizationName: org.name, policySetIds: [] };
  }

  async update(p: Principal, id: string, body: ParsedBody<UpdatePolicyAttributes>): Promise<PolicyView> {
    const policy = await this.requireManageable(p, id);
    const attrs = body.attributes;
    if (attrs.kind !== undefined && attrs.kind !== policy.kind) {
      throw invalidAttribute('kind', 'cannot be changed after the policy is created');
    }
    const requested = requestedLevel(attrs);
    const enforcementLevel = requested?.level ?? policy.enforcementLevel;
    const query = body.has('query') ? (attrs.query ?? null) : policy.query;
    policyViolations(policy.kind, enforcementLevel, query, requested?.attribute).throwIfAny();
    if (attrs.name !== undefined) policy.name = attrs.name;
    if (body.has('description')) policy.description = attrs.description ?? null;
    policy.enforcementLevel = enforcementLevel as EnforcementLevel;
    policy.query = query;
    policy.updatedAt = new Date();
    await this.saveUnique((manager) => this.repo.update(manager, policy));
    const [view] = await this.views([policy]);
    return view;
  }

  /** Deletes the policy; its memberships go with it (the sets themselves stay). */
  async delete(p: Principal, id: string): Promise<void> {
    const policy = await this.requireManageable(p, id);
    await inOneStatement(this.ds, (manager) => this.repo.delete(manager, policy.id));
    await this.blobs.delete(codeKey(policy.id));
  }

  /** Stores the policy code (a raw text body, streamed with a size cap) in the blob store. */
  async uploadCode(p: Principal, id: string, body: Readable, declaredLength?: number): Promise<void> {
    const policy = await this.requireManageable(p, id);
    const maxBytes = this.config.maxPolicyBytes;
    if (declaredLength !== undefined && declaredLength > maxBytes) throw tooLarge(maxBytes);
    const stored = await this.blobs.put(codeKey(policy.id), body, { maxBytes });
    const recorded = await inTransaction(this.ds, (manager) =>
      this.repo.recordCode(manager, policy.id, stored.size, stored.sha256, new Date()),
    );
    if (!recorded) {
      // The policy was deleted while its code streamed in: keep nothing.
      await this.blobs.delete(codeKey(policy.id));
      throw notFound();
    }
  }

  /** The uploaded code as a stream; 404 until code was uploaded. */
  async downloadCode(p: Principal, id: string): Promise<{ stream: Readable; size: number }> {
    const policy = await this.requireManageable(p, id);
    if (policy.codeSize === null) throw notFound('no policy code has been uploaded');
    return { stream: await this.blobs.get(codeKey(policy.id)), size: policy.codeSize };
  }

  private async views(policies: PolicyEntity[]): Promise<PolicyView[]> {
    const [setIds, orgs] = await Promise.all([
      this.memberships.setIdsOf(policies.map((x) => x.id)),
      this.organizations.findByIds(policies.map((x) => x.organizationId)),
    ]);
    const names = new Map(orgs.map((o) => [o.id, o.name]));
    return policies.map((policy) => ({
      policy,
      organizationName: names.get(policy.organizationId) ?? '',
      policySetIds: setIds.get(policy.id) ?? [],
    }));
  }

  /** Runs `write` (the policy's insert or update), a taken name answering 422. */
  private async saveUnique(write: (manager: EntityManager) => Promise<void>): Promise<void> {
    await whenDuplicate(
      () => inTransaction(this.ds, write),
      () => taken('name'),
    );
  }
}
