import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { Principal } from '../common/auth/principal';
import { inTransaction } from '../common/sql/transaction';
import { invalid, Violations } from '../common/errors/domain-error';
import { ResourceIdentifier } from '../common/jsonapi/document';
import { OrganizationsService } from '../organizations/organizations.service';
import { PolicySetEntity } from './entities/policy-set.entity';
import { PolicySetMembers } from './policy-set-members';
import { FREE_EDITION, freePoliciesLimit } from './policy-set-rules';
import { MemberRelation, PolicySetsRepository } from './policy-sets.repository';
import { PolicySetsService } from './policy-sets.service';

/** Why a relationship endpoint cannot act on the set as it is now; null when it can. */
function refusal(relation: MemberRelation, set: PolicySetEntity, adding: boolean): string | null {
  switch (relation) {
    case 'policies':
      if (set.vcsIdentifier !== null)
        return 'Policies cannot be added to or removed from a policy set with a VCS repository';
      if (adding && set.uploadVersioned)
        return 'Policies cannot be added to a policy set that takes uploaded versions';
      return null;
    case 'projects':
      return set.global ? 'Projects cannot be attached to or detached from a global policy set' : null;
    case 'workspaces':
      return set.global ? 'Workspaces cannot be attached to or detached from a global policy set' : null;
    case 'workspace-exclusions':
      return null;
  }
}

/**
 * The eight relationship endpoints. They are idempotent: adding a present member or removing an
 * absent one succeeds and changes nothing.
 */
@Injectable()
export class PolicySetRelationshipsService {
  constructor(
    private readonly sets: PolicySetsService,
    private readonly repo: PolicySetsRepository,
    private readonly members: PolicySetMembers,
    private readonly organizations: OrganizationsService,
    @InjectDataSource() private readonly ds: DataSource,
  ) {}

  async add(p: Principal, id: string, relation: MemberRelation, refs: ResourceIdentifier[]): Promise<void> {
    const set = await this.sets.requireManageable(p, id);
    this.refuseIf(refusal(relation, set, true));
    const org = await this.organizations.requireById(set.organizationId);
    const violations = new Violations();
    const ids = await this.members.resolve(relation, set.organizationId, set.kind, refs, '/data', violations);
    violations.throwIfAny();
    await this.change(set.id, relation, true, async (manager, now) => {
      await this.repo.addMembers(manager, relation, set.id, ids, now);
      if (
        relation === 'policies' &&
        org.edition === 'free' &&
        (await this.repo.countMembers(manager, 'policies', set.id)) > FREE_EDITION.policiesPerSet
      ) {
        throw invalid(freePoliciesLimit(), '/data');
      }
    });
  }

  async remove(
    p: Principal,
    id: string,
    relation: MemberRelation,
    refs: ResourceIdentifier[],
  ): Promise<void> {
    const set = await this.sets.requireManageable(p, id);
    this.refuseIf(refusal(relation, set, false));
    await this.change(set.id, relation, false, (manager) =>
      this.repo.removeMembers(
        manager,
        relation,
        set.id,
        refs.map((r) => r.id),
      ),
    );
  }

  /** Runs the change with the set locked, re-checking the refusal against the locked row. */
  private async change(
    setId: string,
    relation: MemberRelation,
    adding: boolean,
    work: (manager: EntityManager, now: Date) => Promise<void>,
  ): Promise<void> {
    await inTransaction(this.ds, async (manager) => {
      const set = await this.sets.lockExisting(manager, setId);
      this.refuseIf(refusal(relation, set, adding));
      await work(manager, new Date());
    });
  }

  private refuseIf(reason: string | null): void {
    if (reason) throw invalid(reason, '/data');
  }
}
