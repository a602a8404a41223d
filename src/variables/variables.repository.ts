import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { EntityManager, In, Repository } from 'typeorm';
import { Page, paginate } from '../common/sql/paginate';
import { PageParams } from '../common/jsonapi/pagination';
import { VariableEntity } from './entities/variable.entity';
import { replaceSealed, sealedValuesAfter } from '../common/sql/transaction';

/** Whose variables: a workspace's own, or a variable set's. */
export type VariableOwner = { workspaceId: string } | { varsetId: string };

/** The variables table: workspace and set variables, their sealed values. */
@Injectable()
export class VariablesRepository {
  constructor(@InjectRepository(VariableEntity) private readonly repo: Repository<VariableEntity>) {}

  findById(id: string): Promise<VariableEntity | null> {
    return this.repo.findOne({ where: { id } });
  }

  /** A page of one owner's variables, oldest first. */
  list(owner: VariableOwner, page: PageParams): Promise<Page<VariableEntity>> {
    const qb = this.repo.createQueryBuilder('v').orderBy('v.created_at', 'ASC').addOrderBy('v.id', 'ASC');
    if ('workspaceId' in owner) qb.where('v.workspace_id = :id', { id: owner.workspaceId });
    else qb.where('v.varset_id = :id', { id: owner.varsetId });
    return paginate(qb, page);
  }

  /** Every variable of these workspaces (a legacy list, one workspace) or of these sets. */
  ofWorkspace(workspaceId: string, manager?: EntityManager): Promise<VariableEntity[]> {
    const repo = manager ? manager.getRepository(VariableEntity) : this.repo;
    return repo.find({ where: { workspaceId }, order: { createdAt: 'ASC', id: 'ASC' } });
  }

  /** Key and category of every sensitive variable of these workspaces (no values), one query. */
  async sensitiveOfWorkspaces(
    workspaceIds: readonly string[],
  ): Promise<{ workspaceId: string; key: string; category: string }[]> {
    if (!workspaceIds.length) return [];
    const rows = await this.repo.find({
      select: { workspaceId: true, key: true, category: true },
      where: { workspaceId: In([...workspaceIds]), sensitive: true },
    });
    return rows.map((r) => ({ workspaceId: r.workspaceId ?? '', key: r.key, category: r.category }));
  }

  ofVarsets(varsetIds: readonly string[], manager?: EntityManager): Promise<VariableEntity[]> {
    if (!varsetIds.length) return Promise.resolve([]);
    const repo = manager ? manager.getRepository(VariableEntity) : this.repo;
    return repo.find({ where: { varsetId: In([...varsetIds]) }, order: { createdAt: 'ASC', id: 'ASC' } });
  }

  /** How many variables each set holds. */
  async countsByVarset(varsetIds: readonly string[]): Promise<Map<string, number>> {
    const out = new Map<string, number>();
    if (!varsetIds.length) return out;
    const rows: { varsetId: string; n: string | number }[] = await this.repo
      .createQueryBuilder('v')
      .select('v.varset_id', 'varsetId')
      .addSelect('COUNT(*)', 'n')
      .where('v.varset_id IN (:...ids)', { ids: [...varsetIds] })
      .groupBy('v.varset_id')
      .getRawMany();
    for (const r of rows) out.set(r.varsetId, Number(r.n));
    return out;
  }

  /** Ids of a page of sets' variables, for the sets' `vars` relationships. */
  async idsByVarset(varsetIds: readonly string[]): Promise<Map<string, string[]>> {
    const out = new Map<string, string[]>(varsetIds.map((id) => [id, []]));
    if (!varsetIds.length) return out;
    const rows: { id: string; varsetId: string }[] = await this.repo
      .createQueryBuilder('v')
      .select('v.id', 'id')
      .addSelect('v.varset_id', 'varsetId')
      .where('v.varset_id IN (:...ids)', { ids: [...varsetIds] })
      .orderBy('v.created_at', 'ASC')
      .addOrderBy('v.id', 'ASC')
      .getRawMany();
    for (const r of rows) out.get(r.varsetId)?.push(r.id);
    return out;
  }

  async insert(manager: EntityManager, variable: VariableEntity): Promise<void> {
    await manager.getRepository(VariableEntity).insert({ ...variable });
  }

  async update(manager: EntityManager, variable: VariableEntity): Promise<void> {
    const { id, ...rest } = variable;
    await manager.getRepository(VariableEntity).update({ id }, rest);
  }

  async delete(manager: EntityManager, id: string): Promise<void> {
    await manager.getRepository(VariableEntity).delete({ id });
  }

  /** Sealed values in id order after `afterId` (for a key rotation). */
  sealedValues(afterId: string, limit: number): Promise<{ id: string; wrapped: string }[]> {
    return sealedValuesAfter(this.repo, afterId, limit);
  }

  /** Compare-and-set of one sealed value under the row's lock (a JSON column cannot be compared in SQL). */
  replaceSealedValue(manager: EntityManager, id: string, from: string, to: string): Promise<boolean> {
    return replaceSealed(manager, VariableEntity, { id }, 'sealedValue', from, to);
  }
}
