import { Injectable } from '@nestjs/common';
import { Principal } from '../common/auth/principal';
import { PageParams } from '../common/jsonapi/pagination';
import { Page, pageOf } from '../common/sql/paginate';
import { WorkspacesService } from '../workspaces/workspaces.service';
import { RunEntity } from './entities/run.entity';
import { OrganizationRunsRepository } from './organization-runs.repository';
import { RunsService } from './runs.service';

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
