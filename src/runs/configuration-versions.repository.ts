import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { EntityManager, Repository } from 'typeorm';
import { paginate, Page } from '../common/sql/paginate';
import { RowReader } from '../common/sql/row-reader';
import { RowWriter } from '../common/sql/row-writer';
import { PageParams } from '../common/jsonapi/pagination';
import {
  ConfigurationVersionEntity,
  ConfigurationVersionStatus,
} from './entities/configuration-version.entity';

@Injectable()
export class ConfigurationVersionsRepository {
  /** Every run shown or created reads its configuration version: without TypeORM's find. */
  private readonly rows: RowReader<ConfigurationVersionEntity>;
  private readonly writes: RowWriter<ConfigurationVersionEntity>;

  constructor(
    @InjectRepository(ConfigurationVersionEntity)
    private readonly repo: Repository<ConfigurationVersionEntity>,
  ) {
    this.rows = new RowReader(repo.manager.connection, ConfigurationVersionEntity);
    this.writes = new RowWriter(repo.manager.connection, ConfigurationVersionEntity);
  }

  /** With a transaction's manager: read on its connection. */
  findById(id: string, manager?: EntityManager): Promise<ConfigurationVersionEntity | null> {
    return this.rows.byId(id, manager);
  }

  findByIds(ids: string[]): Promise<ConfigurationVersionEntity[]> {
    return this.rows.byIds(ids);
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

  /** The workspace's configuration: its newest uploaded version that is not provisional. */
  newestUploaded(manager: EntityManager, workspaceId: string): Promise<ConfigurationVersionEntity | null> {
    return manager.getRepository(ConfigurationVersionEntity).findOne({
      where: { workspaceId, status: 'uploaded', provisional: false },
      order: { createdAt: 'DESC' },
    });
  }

  /** Each workspace's configuration (as `newestUploaded`), in one query for all of them. */
  currentOf(workspaceIds: readonly string[]): Promise<ConfigurationVersionEntity[]> {
    if (!workspaceIds.length) return Promise.resolve([]);
    const current = (alias: string) => `${alias}.status = 'uploaded' AND ${alias}.provisional = 0`;
    return this.repo
      .createQueryBuilder('cv')
      .where('cv.workspace_id IN (:...workspaceIds)', { workspaceIds: [...new Set(workspaceIds)] })
      .andWhere(current('cv'))
      .andWhere(
        `cv.created_at = (SELECT MAX(n.created_at) FROM configuration_versions n ` +
          `WHERE n.workspace_id = cv.workspace_id AND ${current('n')})`,
      )
      .getMany();
  }

  /** A provisional version becomes the workspace's configuration (a run of it applied). */
  async confirm(manager: EntityManager, id: string): Promise<void> {
    await this.writes.update({ provisional: false }, { id, provisional: true }, manager);
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
    return (await this.writes.update(changes, { id, status: from }, manager)) > 0;
  }
}
