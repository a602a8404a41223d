import { Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import type { PolicyEntity } from '../policies/entities/policy.entity';
import { PoliciesService, policyCodeKey } from '../policies/policies.service';
import type { PolicySetEntity } from './entities/policy-set.entity';
import { archiveKey } from './policy-set-versions.service';
import { EnforcedSetsCache } from './enforced-sets.cache';
import { PolicySetsRepository } from './policy-sets.repository';

/** One policy of a set as it is now, with where its code lives (null: none uploaded). */
export interface PolicyNow {
  policy: PolicyEntity;
  codeKey: string | null;
}

/**
 * A set enforced on a workspace, as it is at this instant: its attributes, and either its current
 * (newest ready) version, for sets whose code comes from versions, or its policies.
 */
export interface EffectiveSetNow {
  set: PolicySetEntity;
  /** Versioned sets (uploaded versions or a VCS repository) take their code from a version. */
  versioned: boolean;
  version: { id: string; archiveKey: string } | null;
  policies: PolicyNow[];
}

/** What the policy checks of runs read of policy sets: the effective sets of a workspace, whole. */
@Injectable()
export class PolicySetSnapshots {
  constructor(
    private readonly repo: PolicySetsRepository,
    private readonly policies: PoliciesService,
    private readonly enforced: EnforcedSetsCache,
  ) {}

  /**
   * Read in the caller's transaction, so the check records what applied when the plan finished.
   * That no set applies is remembered (EnforcedSetsCache) while no set changed.
   */
  async effectiveNow(
    manager: EntityManager,
    workspace: { organizationId: string; projectId: string },
    workspaceId: string,
  ): Promise<EffectiveSetNow[]> {
    const read = () =>
      this.repo.allEffective(manager, workspace.organizationId, workspaceId, workspace.projectId);
    const any = await this.enforced.any(workspaceId, workspace.projectId, async () => (await read()).length > 0);
    if (!any) return [];
    const sets = await read();
    if (!sets.length) return [];
    const relations = await this.repo.relations(sets, manager);
    const policyIds = sets.flatMap((s) => relations.members.policies.get(s.id) ?? []);
    const policies = new Map((await this.policies.findByIds(policyIds, manager)).map((p) => [p.id, p]));
    return sets.map((set) => {
      const current = relations.current.get(set.id);
      return {
        set,
        versioned: set.uploadVersioned || set.vcsIdentifier !== null,
        version: current ? { id: current.id, archiveKey: archiveKey(current) } : null,
        policies: (relations.members.policies.get(set.id) ?? [])
          .map((id) => policies.get(id))
          .filter((p): p is PolicyEntity => p !== undefined)
          .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))
          .map((policy) => ({ policy, codeKey: policy.codeSize === null ? null : policyCodeKey(policy.id) })),
      };
    });
  }
}
