import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { EntityManager, In, Repository } from 'typeorm';
import { IdSubquery } from '../common/sql/id-subquery';
import type { TagFilter } from '../common/jsonapi/query';
import { TagBindingEntity } from './entities/tag-binding.entity';

type Owner = 'workspace_id' | 'project_id';

/** The project or the workspace that bindings belong to. */
export type TagScope = { projectId: string } | { workspaceId: string };

@Injectable()
export class TagBindingsRepository {
  constructor(@InjectRepository(TagBindingEntity) private readonly repo: Repository<TagBindingEntity>) {}

  /** Every binding of one project or workspace: one query (a target holds at most ten). */
  all(scope: TagScope, manager?: EntityManager): Promise<TagBindingEntity[]> {
    const repo = manager ? manager.getRepository(TagBindingEntity) : this.repo;
    return repo.find({ where: scope });
  }

  /**
   * The ids of workspaces or projects holding a binding of `filter.key` (keys match in any letter
   * case, as they are unique) and, if given, exactly `filter.value`; `n` keeps parameter names apart.
   */
  idsBound(owner: Owner, filter: TagFilter, n: string, anyValue = false): IdSubquery {
    const qb = this.repo.manager
      .createQueryBuilder()
      .subQuery()
      .select(`tb.${owner}`)
      .from(TagBindingEntity, 'tb')
      .where(`tb.${owner} IS NOT NULL`)
      .andWhere(`LOWER(tb.key) = :tagKey${n}`);
    const parameters: Record<string, unknown> = { [`tagKey${n}`]: filter.key.toLowerCase() };
    if (filter.value !== undefined && !anyValue) {
      qb.andWhere(`tb.value = :tagValue${n}`);
      parameters[`tagValue${n}`] = filter.value;
    }
    return { sql: qb.getQuery(), parameters };
  }

  /** Every binding of these projects or workspaces, one query. */
  allOf(owner: 'projectId' | 'workspaceId', ids: readonly string[]): Promise<TagBindingEntity[]> {
    if (!ids.length) return Promise.resolve([]);
    return this.repo.find({ where: { [owner]: In([...new Set(ids)]) } });
  }

  async insert(manager: EntityManager, rows: TagBindingEntity[]): Promise<void> {
    if (rows.length) await manager.getRepository(TagBindingEntity).insert(rows);
  }

  async update(manager: EntityManager, row: TagBindingEntity): Promise<void> {
    await manager
      .getRepository(TagBindingEntity)
      .update({ id: row.id }, { key: row.key, value: row.value, updatedAt: row.updatedAt });
  }

  async delete(manager: EntityManager, ids: string[]): Promise<void> {
    if (ids.length) await manager.getRepository(TagBindingEntity).delete({ id: In(ids) });
  }
}
