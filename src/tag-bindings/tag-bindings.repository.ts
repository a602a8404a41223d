import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { EntityManager, In, Repository } from 'typeorm';
import { TagBindingEntity } from './entities/tag-binding.entity';

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
