import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { EntityManager, In, IsNull, LessThan, MoreThan, Not, Repository } from 'typeorm';
import { PageParams } from '../common/jsonapi/pagination';
import { Page, paginate } from '../common/sql/paginate';
import { RowReader } from '../common/sql/row-reader';
import { replaceSealed } from '../common/sql/transaction';
import { StateVersionOutputEntity } from './entities/state-version-output.entity';
import { StateVersionEntity, StateVersionStatus } from './entities/state-version.entity';

/** The columns of state_versions that hold a wrapped data key. */
export type DataKeyColumn = 'stateDataKey' | 'jsonStateDataKey';

@Injectable()
export class StateVersionsRepository {
  private readonly versions: RowReader<StateVersionEntity>;

  constructor(
    @InjectRepository(StateVersionEntity) private readonly repo: Repository<StateVersionEntity>,
    @InjectRepository(StateVersionOutputEntity)
    private readonly outputs: Repository<StateVersionOutputEntity>,
  ) {
    this.versions = new RowReader(repo.manager.connection, StateVersionEntity);
  }

  /** Read by every state read and download: plain SQL (see RowReader). */
  findById(id: string, manager?: EntityManager): Promise<StateVersionEntity | null> {
    return this.versions.byId(id, manager);
  }

  findByIds(ids: string[]): Promise<StateVersionEntity[]> {
    return this.versions.byIds(ids);
  }

  /** The workspace's most recently created version, whatever its status. */
  newest(manager: EntityManager, workspaceId: string): Promise<StateVersionEntity | null> {
    return manager
      .getRepository(StateVersionEntity)
      .findOne({ where: { workspaceId }, order: { createdAt: 'DESC', id: 'DESC' } });
  }

  /** The workspace's current version: its newest finalized one (what finalize makes current). */
  current(workspaceId: string): Promise<StateVersionEntity | null> {
    return this.repo.findOne({
      where: { workspaceId, status: 'finalized' },
      order: { createdAt: 'DESC', id: 'DESC' },
    });
  }

  /** A finalized version the run wrote with exactly this state (by its MD5): a repeated upload. */
  writtenByRun(
    manager: EntityManager,
    workspaceId: string,
    runId: string,
    md5: string,
  ): Promise<StateVersionEntity | null> {
    return manager
      .getRepository(StateVersionEntity)
      .findOne({ where: { workspaceId, runId, md5, status: 'finalized' } });
  }

  /** A workspace's versions, newest first (or in the order `sort` asks). */
  list(
    workspaceId: string,
    status: StateVersionStatus | undefined,
    page: PageParams,
  ): Promise<Page<StateVersionEntity>> {
    const qb = this.repo
      .createQueryBuilder('sv')
      .where('sv.workspace_id = :workspaceId', { workspaceId })
      .orderBy('sv.createdAt', 'DESC')
      .addOrderBy('sv.id', 'DESC');
    if (status) qb.andWhere('sv.status = :status', { status });
    return paginate(qb, page);
  }

  /** Inserts a copy: TypeORM writes what the database defaulted back into what it inserts, raw. */
  async insert(manager: EntityManager, version: StateVersionEntity): Promise<void> {
    await manager.getRepository(StateVersionEntity).insert({ ...version });
  }

  async insertOutputs(manager: EntityManager, outputs: StateVersionOutputEntity[]): Promise<void> {
    const repo = manager.getRepository(StateVersionOutputEntity);
    // In slices: every driver bounds the parameters of one statement.
    for (let i = 0; i < outputs.length; i += 100) {
      await repo.insert(outputs.slice(i, i + 100).map((o) => ({ ...o })));
    }
  }

  /** Moves a pending version to finalized with its state; false when it is no longer pending. */
  async finalize(manager: EntityManager, id: string, changes: Partial<StateVersionEntity>): Promise<boolean> {
    const result = await manager
      .getRepository(StateVersionEntity)
      .update({ id, status: 'pending' }, { ...changes, status: 'finalized' });
    return (result.affected ?? 0) > 0;
  }

  /** Records the JSON state of a version that has none and is not discarded; false otherwise. */
  async attachJsonState(
    manager: EntityManager,
    id: string,
    changes: Pick<
      StateVersionEntity,
      'jsonStateBlobKey' | 'jsonStateDataKey' | 'jsonStateSize' | 'updatedAt'
    >,
  ): Promise<boolean> {
    const result = await manager
      .getRepository(StateVersionEntity)
      .update({ id, jsonStateBlobKey: IsNull(), status: Not('discarded') }, changes);
    return (result.affected ?? 0) > 0;
  }

  /** Discards the workspace's pending versions created before `before` (all of them without it). */
  async discardPending(manager: EntityManager, workspaceId: string, at: Date, before?: Date): Promise<void> {
    await manager
      .getRepository(StateVersionEntity)
      .update(
        { workspaceId, status: 'pending', ...(before ? { createdAt: LessThan(before) } : {}) },
        { status: 'discarded', updatedAt: at },
      );
  }

  /** The output ids of each version (every version given is a key), in name order. */
  async outputIdsOf(versionIds: string[]): Promise<Map<string, string[]>> {
    const out = new Map<string, string[]>(versionIds.map((id) => [id, []]));
    if (!versionIds.length) return out;
    const rows = await this.outputs.find({
      select: { id: true, stateVersionId: true },
      where: { stateVersionId: In(versionIds) },
      order: { name: 'ASC' },
    });
    for (const row of rows) out.get(row.stateVersionId)?.push(row.id);
    return out;
  }

  outputsPage(stateVersionId: string, page: PageParams): Promise<Page<StateVersionOutputEntity>> {
    const qb = this.outputs
      .createQueryBuilder('o')
      .where('o.state_version_id = :stateVersionId', { stateVersionId })
      .orderBy('o.name', 'ASC')
      .addOrderBy('o.id', 'ASC');
    return paginate(qb, page);
  }

  outputsOf(
    versionIds: string[],
    manager: EntityManager = this.repo.manager,
  ): Promise<StateVersionOutputEntity[]> {
    if (!versionIds.length) return Promise.resolve([]);
    return manager
      .getRepository(StateVersionOutputEntity)
      .find({ where: { stateVersionId: In(versionIds) }, order: { name: 'ASC' } });
  }

  findOutput(id: string): Promise<StateVersionOutputEntity | null> {
    return this.outputs.findOne({ where: { id } });
  }

  /** Rows holding a wrapped key in `column`, in id order after `afterId` (for a key rotation). */
  async dataKeys(
    column: DataKeyColumn,
    afterId: string,
    limit: number,
  ): Promise<{ id: string; wrapped: string }[]> {
    const rows = await this.repo.find({
      select: { id: true, [column]: true },
      where: { id: MoreThan(afterId), [column]: Not(IsNull()) },
      order: { id: 'ASC' },
      take: limit,
    });
    return rows.map((r) => ({ id: r.id, wrapped: r[column]! }));
  }

  /** Compare-and-set of one wrapped key. */
  async replaceDataKey(column: DataKeyColumn, id: string, from: string, to: string): Promise<boolean> {
    const result = await this.repo.update({ id, [column]: from }, { [column]: to });
    return (result.affected ?? 0) > 0;
  }

  /** Outputs in id order after `afterId`, with their sealed values (for a key rotation). */
  async sealedValues(afterId: string, limit: number): Promise<{ id: string; wrapped: string }[]> {
    const rows = await this.outputs.find({
      select: { id: true, sealedValue: true },
      where: { id: MoreThan(afterId) },
      order: { id: 'ASC' },
      take: limit,
    });
    return rows.map((r) => ({ id: r.id, wrapped: r.sealedValue }));
  }

  /**
   * Compare-and-set of one sealed value, made under the row's lock: a JSON column compares
   * differently on each database, so the comparison is made here.
   */
  replaceSealedValue(manager: EntityManager, id: string, from: string, to: string): Promise<boolean> {
    return replaceSealed(manager, StateVersionOutputEntity, { id }, 'sealedValue', from, to);
  }
}
