import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { Page, pageOf, WINDOW_TOTAL, windowTotal } from '../common/sql/paginate';
import { RowReader } from '../common/sql/row-reader';
import { RowWriter } from '../common/sql/row-writer';
import { offsetOf, PageParams } from '../common/jsonapi/pagination';
import { WorkspaceEntity } from '../workspaces/entities/workspace.entity';
import { RunTriggerEntity } from './entities/run-trigger.entity';
import { TriggerEdge } from './run-triggers.rules';
import { readRows, readRowsWith } from '../persistence/pool-reads';

/** A trigger with both of its workspaces, as read: the names on the wire come from these. */
export interface RunTriggerView {
  trigger: RunTriggerEntity;
  workspace: WorkspaceEntity;
  sourceable: WorkspaceEntity;
}

export type TriggerDirection = 'inbound' | 'outbound';

/** ORDER BY of a page of triggers: created-at (the only sort field) and id, ascending by default. */
function orderOf(page: PageParams): string {
  const direction = page.sort?.[0]?.descending ? 'DESC' : 'ASC';
  return `rt.created_at ${direction}, rt.id ${direction}`;
}

@Injectable()
export class RunTriggersRepository {
  private readonly triggers: RowReader<RunTriggerEntity>;
  private readonly workspaces: RowReader<WorkspaceEntity>;
  private readonly writer: RowWriter<RunTriggerEntity>;

  constructor(@InjectDataSource() private readonly ds: DataSource) {
    this.triggers = new RowReader(ds, RunTriggerEntity);
    this.workspaces = new RowReader(ds, WorkspaceEntity);
    this.writer = new RowWriter(ds, RunTriggerEntity);
  }

  /** The trigger's row and both its workspaces' rows as `listViews` reads them. */
  private view(row: Record<string, unknown>): RunTriggerView {
    return {
      trigger: this.triggers.hydrate(row, 'rt'),
      workspace: this.workspaces.hydrate(row, 'w'),
      sourceable: this.workspaces.hydrate(row, 's'),
    };
  }

  async findView(id: string): Promise<RunTriggerView | null> {
    const [row] = await readRows(
      this.ds,
      `SELECT ${this.triggers.select('rt')}, ${this.workspaces.select('w')}, ${this.workspaces.select('s')}
         FROM run_triggers rt
         JOIN workspaces w ON w.id = rt.workspace_id
         JOIN workspaces s ON s.id = rt.sourceable_id
        WHERE rt.id = ?`,
      [id],
    );
    return row ? this.view(row) : null;
  }

  /**
   * Inbound: triggers whose destination is the workspace; outbound: those whose source it is.
   * One query in plain SQL (see RowReader) carrying the total beside each row; a second one only
   * for a page past the end.
   */
  async listViews(
    workspaceId: string,
    direction: TriggerDirection,
    page: PageParams,
  ): Promise<Page<RunTriggerView>> {
    const column = direction === 'inbound' ? 'rt.workspace_id' : 'rt.sourceable_id';
    const rows = await readRows(
      this.ds,
      `SELECT ${this.triggers.select('rt')}, ${this.workspaces.select('w')}, ${this.workspaces.select('s')},
              ${WINDOW_TOTAL}
         FROM run_triggers rt
         JOIN workspaces w ON w.id = rt.workspace_id
         JOIN workspaces s ON s.id = rt.sourceable_id
        WHERE ${column} = ?
        ORDER BY ${orderOf(page)}
        LIMIT ? OFFSET ?`,
      [workspaceId, page.size, offsetOf(page)],
    );
    const totalCount = await windowTotal(rows, async () => {
      const [count] = await readRows<{ n: unknown }>(
        this.ds,
        `SELECT COUNT(*) AS n FROM run_triggers rt WHERE ${column} = ?`,
        [workspaceId],
      );
      return Number(count?.n ?? 0);
    });
    return pageOf(
      rows.map((row) => this.view(row)),
      totalCount,
      page,
    );
  }

  /**
   * `listViews` and the workspace it lists for, in one round trip: the workspace's row with the
   * page of its triggers left-joined to it. Undefined when that row did not come back (no such
   * workspace, or a page past the end): the caller then asks the two questions apart.
   */
  async listViewsOf(
    workspaceId: string,
    direction: TriggerDirection,
    page: PageParams,
  ): Promise<{ workspace: WorkspaceEntity; page: Page<RunTriggerView> } | undefined> {
    // The listed workspace is one end of every trigger; only the other end is joined per row.
    const [end, other] =
      direction === 'inbound' ? ['workspace_id', 'sourceable_id'] : ['sourceable_id', 'workspace_id'];
    const rows = await readRows(
      this.ds,
      `SELECT ${this.workspaces.select('d')}, ${this.triggers.select('rt')}, ${this.workspaces.select('o')},
              COUNT(rt.id) OVER () AS page_total_count
         FROM workspaces d
         LEFT JOIN run_triggers rt ON rt.${end} = d.id
         LEFT JOIN workspaces o ON o.id = rt.${other}
        WHERE d.id = ?
        ORDER BY ${orderOf(page)}
        LIMIT ? OFFSET ?`,
      [workspaceId, page.size, offsetOf(page)],
    );
    if (!rows.length) return undefined;
    const totalCount = Number(rows[0].page_total_count);
    const workspace = this.workspaces.hydrate(rows[0], 'd');
    const items = totalCount
      ? rows.map((row) => {
          const otherEnd = this.workspaces.hydrate(row, 'o');
          return {
            trigger: this.triggers.hydrate(row, 'rt'),
            workspace: direction === 'inbound' ? workspace : otherEnd,
            sourceable: direction === 'inbound' ? otherEnd : workspace,
          };
        })
      : [];
    return { workspace, page: pageOf(items, totalCount, page) };
  }

  /** Every trigger among the organization's workspaces (both ends share the organization). */
  async edgesInOrganization(manager: EntityManager, organizationId: string): Promise<TriggerEdge[]> {
    const rows = await readRowsWith<{ workspace_id: string; sourceable_id: string }>(
      manager,
      `SELECT rt.workspace_id, rt.sourceable_id FROM run_triggers rt
         JOIN workspaces w ON w.id = rt.workspace_id
        WHERE w.organization_id = ?`,
      [organizationId],
    );
    return rows.map((r) => ({ workspaceId: r.workspace_id, sourceableId: r.sourceable_id }));
  }

  /** The triggers whose source is this workspace, oldest first: every run that ends asks, in its transaction. */
  outbound(manager: EntityManager, sourceableId: string): Promise<RunTriggerEntity[]> {
    const { triggers } = this;
    return triggers.many(
      `SELECT ${triggers.select('rt')} FROM run_triggers rt WHERE rt.sourceable_id = ? ORDER BY rt.created_at, rt.id`,
      [sourceableId],
      'rt',
      manager,
    );
  }

  async insert(manager: EntityManager, trigger: RunTriggerEntity): Promise<void> {
    await this.writer.insert(trigger, manager);
  }

  /** One statement, committed by itself and retried after a lost deadlock (RowWriter). */
  async delete(id: string): Promise<void> {
    await this.writer.deleteById(id);
  }
}
