import { Injectable } from '@nestjs/common';
import { PermissionService } from '../common/auth/permission.service';
import { Principal } from '../common/auth/principal';
import { offsetOf, PageParams } from '../common/jsonapi/pagination';
import type { TagFilter } from '../common/jsonapi/query';
import { Page, pageOf } from '../common/sql/paginate';
import { OrganizationsService } from '../organizations/organizations.service';
import { TagBindingsService } from '../tag-bindings/tag-bindings.service';
import { WorkspaceEntity } from './entities/workspace.entity';
import { PageAnchor, WorkspaceListCache } from './workspace-list.cache';
import { WorkspaceRelationsRegistry } from './workspace-relations.registry';
import { WorkspaceListFilter, WorkspacesRepository } from './workspaces.repository';
import { WorkspaceView, writesState } from './workspaces.service';

export interface WorkspaceListQuery {
  search?: string;
  projectId?: string;
  /** `filter[tagged]`: every entry matches one of the workspace's effective tag bindings. */
  tagged?: TagFilter[];
}

/** Pages from this offset on remember where they start (see listPage). */
const ANCHORED_FROM = 1_000;

/** An organization's workspaces as the caller may read them, a page at a time (`GET …/workspaces`). */
@Injectable()
export class WorkspaceListing {
  constructor(
    private readonly repo: WorkspacesRepository,
    private readonly permissions: PermissionService,
    private readonly organizations: OrganizationsService,
    private readonly tagBindings: TagBindingsService,
    private readonly lists: WorkspaceListCache,
    private readonly relations: WorkspaceRelationsRegistry,
  ) {}

  async list(
    p: Principal,
    orgName: string,
    query: WorkspaceListQuery,
    page: PageParams,
  ): Promise<Page<WorkspaceView>> {
    const org = await this.organizations.requireVisible(p, orgName);
    const scope = await this.permissions.workspaceReadScope(p, org.id);
    const { tagged, ...rest } = query;
    const filter = {
      organizationId: org.id,
      ...rest,
      tagged: tagged?.length ? this.tagBindings.workspacesTagged('{id}', '{projectId}', tagged) : undefined,
      teamIds: 'all' in scope ? undefined : scope.teamIds,
    };
    const key = JSON.stringify([
      filter.organizationId,
      filter.search,
      filter.projectId,
      filter.teamIds,
      tagged,
    ]);
    const [workspaces, totalCount] = await Promise.all([
      this.listPage(key, filter, page),
      this.lists.get(`count:${key}`, () => this.repo.count(filter)),
    ]);
    const [levels, currentRuns] = await Promise.all([
      this.permissions.workspaceLevels(p, workspaces),
      this.relations.currentRunIds(workspaces.map((w) => w.id)),
    ]);
    const items = workspaces.map((ws) => ({
      workspace: ws,
      organization: org,
      level: levels.get(ws.id) ?? null,
      currentRunId: currentRuns.get(ws.id) ?? null,
      writesState: writesState(p),
    }));
    return pageOf(items, totalCount, page);
  }

  /**
   * A page of a list, starting the index walk at a remembered page start when there is one: the
   * same page again, or the page before it (clients paging through a list). Only deep pages are
   * remembered; the first pages are cheap as they are.
   */
  private async listPage(
    key: string,
    filter: WorkspaceListFilter,
    page: PageParams,
  ): Promise<WorkspaceEntity[]> {
    const offset = offsetOf(page);
    // Another order than the name index's (`sort`): an ordinary sorted page, nothing remembered.
    if (page.sort && !(page.sort.length === 1 && page.sort[0].field === 'name' && !page.sort[0].descending)) {
      return this.repo.sortedPage(filter, page);
    }
    if (offset < ANCHORED_FROM) return this.repo.page(filter, offset, page.size);
    const anchor =
      this.lists.peek<PageAnchor>(`anchor:${key}:${offset}`) ??
      this.lists.peek<PageAnchor>(`anchor:${key}:${offset - page.size}`);
    const items = await this.repo.page(filter, offset, page.size, anchor);
    if (items.length) this.lists.set(`anchor:${key}:${offset}`, { offset, name: items[0].name });
    return items;
  }
}
