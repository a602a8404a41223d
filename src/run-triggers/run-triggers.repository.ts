import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { EntityManager, Repository, SelectQueryBuilder } from 'typeorm';
import { Page, paginateCounted } from '../common/database/paginate';
import { PageParams } from '../common/jsonapi/pagination';
import { WorkspaceEntity } from '../workspaces/entities/workspace.entity';
import { RunTriggerEntity } from './entities/run-trigger.entity';
import { TriggerEdge } from './run-triggers.rules';

/** A trigger with both of its workspaces, as read: the names on the wire come from these. */
export interface RunTriggerView {
  trigger: RunTriggerEntity;
  workspace: WorkspaceEntity;
  sourceable: WorkspaceEntity;
}

export type TriggerDirection = 'inbound' | 'outbound';

function toView(trigger: RunTriggerEntity): RunTriggerView {
  const { workspace, sourceable } = trigger;
  // Both joins are inner joins on non-null foreign keys: a row without them cannot be read.
  if (!workspace || !sourceable) throw new Error(`run trigger ${trigger.id} read without its workspaces`);
  return { trigger, workspace, sourceable };
}

@Injectable()
export class RunTriggersRepository {
  constructor(@InjectRepository(RunTriggerEntity) private readonly repo: Repository<RunTriggerEntity>) {}

  private withWorkspaces(): SelectQueryBuilder<RunTriggerEntity> {
    return this.repo
      .createQueryBuilder('rt')
      .innerJoinAndSelect('rt.workspace', 'w')
      .innerJoinAndSelect('rt.sourceable', 's');
  }

  async findView(id: string): Promise<RunTriggerView | null> {
    const trigger = await this.withWorkspaces().where('rt.id = :id', { id }).getOne();
    return trigger ? toView(trigger) : null;
  }

  /** Inbound: triggers whose destination is the workspace; outbound: those whose source it is. */
  async listViews(
    workspaceId: string,
    direction: TriggerDirection,
    page: PageParams,
  ): Promise<Page<RunTriggerView>> {
    const column = direction === 'inbound' ? 'rt.workspace_id' : 'rt.sourceable_id';
    const qb = this.withWorkspaces()
      .where(`${column} = :workspaceId`, { workspaceId })
      .orderBy('rt.created_at', 'ASC')
      .addOrderBy('rt.id', 'ASC');
    const result = await paginateCounted(qb, page);
    return { ...result, items: result.items.map(toView) };
  }

  /** Every trigger among the organization's workspaces (both ends share the organization). */
  async edgesInOrganization(manager: EntityManager, organizationId: string): Promise<TriggerEdge[]> {
    const rows: { workspaceId: string; sourceableId: string }[] = await manager
      .createQueryBuilder(RunTriggerEntity, 'rt')
      .innerJoin(WorkspaceEntity, 'w', 'w.id = rt.workspace_id')
      .select('rt.workspace_id', 'workspaceId')
      .addSelect('rt.sourceable_id', 'sourceableId')
      .where('w.organization_id = :organizationId', { organizationId })
      .getRawMany();
    return rows.map((r) => ({ workspaceId: r.workspaceId, sourceableId: r.sourceableId }));
  }

  async insert(manager: EntityManager, trigger: RunTriggerEntity): Promise<void> {
    await manager.getRepository(RunTriggerEntity).insert(trigger);
  }

  async delete(manager: EntityManager, id: string): Promise<void> {
    await manager.getRepository(RunTriggerEntity).delete({ id });
  }
}
