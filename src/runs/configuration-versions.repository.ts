import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { EntityManager, In, Repository } from 'typeorm';
import { paginate, Page } from '../common/sql/paginate';
import { PageParams } from '../common/jsonapi/pagination';
import {
  ConfigurationVersionEntity,
  ConfigurationVersionStatus,
} from './entities/configuration-version.entity';

@Injectable()
export class ConfigurationVersionsRepository {
  constructor(
    @InjectRepository(ConfigurationVersionEntity)
    private readonly repo: Repository<ConfigurationVersionEntity>,
  ) {}

  findById(id: string, manager?: EntityManager): Promise<ConfigurationVersionEntity | null> {
    return (manager ?? this.repo.manager)
      .getRepository(ConfigurationVersionEntity)
      .findOne({ where: { id } });
  }

  findByIds(ids: string[]): Promise<ConfigurationVersionEntity[]> {
    return ids.length ? this.repo.find({ where: { id: In([...new Set(ids)]) } }) : Promise.resolve([]);
  }

  /** Newest first: creation times are strictly increasing within a workspace. */
  list(workspaceId: string, page: PageParams): Promise<Page<ConfigurationVersionEntity>> {
    const qb = this.repo
      .createQueryBuilder('cv')
      .where('cv.workspace_id = :workspaceId', { workspaceId })
      .orderBy('cv.created_at', 'DESC')
      .addOrderBy('cv.id', 'DESC');
    return paginate(qb, page);
  }

  newest(manager: EntityManager, workspaceId: string): Promise<ConfigurationVersionEntity | null> {
    return manager
      .getRepository(ConfigurationVersionEntity)
      .findOne({ where: { workspaceId }, order: { createdAt: 'DESC' } });
  }

  newestUploaded(manager: EntityManager, workspaceId: string): Promise<ConfigurationVersionEntity | null> {
    return manager
      .getRepository(ConfigurationVersionEntity)
      .findOne({ where: { workspaceId, status: 'uploaded' }, order: { createdAt: 'DESC' } });
  }

  insert(manager: EntityManager, cv: ConfigurationVersionEntity): Promise<ConfigurationVersionEntity> {
    return manager.getRepository(ConfigurationVersionEntity).save(cv);
  }

  /** Compare-and-set on the status: false when another request moved it first. */
  async transition(
    manager: EntityManager,
    id: string,
    from: ConfigurationVersionStatus,
    changes: Partial<ConfigurationVersionEntity>,
  ): Promise<boolean> {
    const result = await manager
      .getRepository(ConfigurationVersionEntity)
      .update({ id, status: from }, changes);
    return (result.affected ?? 0) > 0;
  }
}
