import { Injectable } from '@nestjs/common';

/** The sets each of the given policies belongs to, in membership order: one query. */
export type SetIdsOfPolicies = (policyIds: string[]) => Promise<Map<string, string[]>>;

/**
 * The policy-sets module owns the membership table and depends on this module, so it registers
 * the query at start-up; `policy-set-count` and the `policy-sets` linkage of a policy come from it.
 */
@Injectable()
export class PolicySetMemberships {
  private lookup?: SetIdsOfPolicies;

  register(lookup: SetIdsOfPolicies): void {
    this.lookup = lookup;
  }

  setIdsOf(policyIds: string[]): Promise<Map<string, string[]>> {
    if (!this.lookup) throw new Error('no policy-set membership lookup registered');
    return this.lookup(policyIds);
  }
}
