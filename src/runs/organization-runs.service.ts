import { Injectable } from '@nestjs/common';
import { Principal } from '../common/auth/principal';
import { PageParams } from '../common/jsonapi/pagination';
import { Page, pageOf } from '../common/sql/paginate';
import { WorkspacesService } from '../workspaces/workspaces.service';
import { RunEntity } from './entities/run.entity';
import { OrganizationRunsRepository } from './organization-runs.repository';
import { RunStatus } from './run-rules';
import { RunsService } from './runs.service';

/** How many names one `filter[workspace_names]` may carry. */
export const MAX_WORKSPACE_NAMES = 100;

export interface OrganizationCapacity {
  organizationName: string;
  pending: number;
  running: number;
}

/**
 * What the CLI reads while it waits for a run: the organization's run queue and capacity, and a
 * run's events. Each covers only the workspaces the caller may read; a non-member gets 404.
 */
@Injectable()
export class OrganizationRunsService {
  constructor(
    private readonly repo: OrganizationRunsRepository,
    private readonly workspaces: WorkspacesService,
    private readonly runs: RunsService,
  ) {}

  async queue(p: Principal, orgName: string, page: PageParams): Promise<Page<RunEntity>> {
    const { ids } = await this.workspaces.readableIdsIn(p, orgName);
    return this.repo.queue(ids, page);
  }

  /**
   * The organization's runs, newest first, over the workspaces the caller may read; `workspaceNames`
   * keeps those of the named workspaces (a name that is not one of them matches nothing).
   */
  async list(
    p: Principal,
    orgName: string,
    filter: { statuses?: RunStatus[]; workspaceNames?: string[] },
    page: PageParams,
  ): Promise<Page<RunEntity>> {
    const { organizationId, ids } = await this.workspaces.readableIdsIn(p, orgName);
    let named: string[] | undefined;
    if (filter.workspaceNames) {
      const found = await Promise.all(
        filter.workspaceNames.map((name) => this.workspaces.findByName(organizationId, name)),
      );
      named = found.filter((w) => w !== null).map((w) => w.id);
      if (!named.length) return pageOf([], 0, page);
    }
    return this.repo.list(ids, { statuses: filter.statuses, named }, page);
  }

  async capacity(p: Principal, orgName: string): Promise<OrganizationCapacity> {
    const { ids } = await this.workspaces.readableIdsIn(p, orgName);
    return { organizationName: orgName, ...(await this.repo.capacity(ids)) };
  }

  /**
   * Plinth records no run events beyond the run's own status timestamps and its comments
   * (`/runs/:id/comments`): the list is empty, for any run the caller may read.
   */
  async events(p: Principal, runId: string, page: PageParams): Promise<Page<never>> {
    await this.runs.requireReadable(p, runId);
    return pageOf([], 0, page);
  }
}
