import { Injectable } from '@nestjs/common';

/** The id of each organization's Default Project, by organization id. */
export type DefaultProjectLookup = (organizationIds: string[]) => Promise<Map<string, string>>;

/**
 * Organizations show their `default-project` relationship, but projects sit above organizations:
 * the projects module registers its lookup here at start-up instead of being imported.
 */
@Injectable()
export class DefaultProjectsRegistry {
  private lookup: DefaultProjectLookup | undefined;

  register(lookup: DefaultProjectLookup): void {
    this.lookup = lookup;
  }

  /** One query for any number of organizations; empty until the projects module registered. */
  async of(organizationIds: string[]): Promise<Map<string, string>> {
    const ids = [...new Set(organizationIds)];
    if (!this.lookup || !ids.length) return new Map();
    return this.lookup(ids);
  }
}
