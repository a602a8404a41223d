import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { EntityManager, Repository, SelectQueryBuilder } from 'typeorm';
import { likeCondition, likePattern } from '../common/sql/like';
import { paginate, Page } from '../common/sql/paginate';
import { PageParams } from '../common/jsonapi/pagination';
import { withRowLock } from '../common/sql/transaction';
import { Catalog } from './catalogs';
import { ToolVersionEntity } from './entities/tool-version.entity';

export interface ToolVersionListFilter {
  /** Exact version (any case); wins over `search`. */
  version?: string;
  /** Substring of the version. */
  search?: string;
}

@Injectable()
export class ToolVersionsRepository {
  constructor(@InjectRepository(ToolVersionEntity) private readonly repo: Repository<ToolVersionEntity>) {}

  findById(catalog: Catalog, id: string): Promise<ToolVersionEntity | null> {
    return this.repo.findOne({ where: { catalog, id } });
  }

  list(catalog: Catalog, filter: ToolVersionListFilter, page: PageParams): Promise<Page<ToolVersionEntity>> {
    const qb = this.repo
      .createQueryBuilder('t')
      .where('t.catalog = :catalog', { catalog })
      .orderBy('t.version', 'ASC')
      .addOrderBy('t.id', 'ASC');
    if (filter.version) this.whereVersion(qb, filter.version);
    else if (filter.search) {
      qb.andWhere(likeCondition('t.version', 'search'), { search: likePattern(filter.search) });
    }
    return paginate(qb, page);
  }

  /** The entry of `version` (any case), read without locking. */
  findByVersion(
    manager: EntityManager,
    catalog: Catalog,
    version: string,
  ): Promise<ToolVersionEntity | null> {
    const qb = manager
      .getRepository(ToolVersionEntity)
      .createQueryBuilder('t')
      .where('t.catalog = :catalog', { catalog });
    this.whereVersion(qb, version);
    return qb.getOne();
  }

  /**
   * The entry with `id`, locked for the rest of the caller's transaction: `share` while a pin on
   * it is saved (it cannot be deleted or renamed meanwhile), `update` while a delete or rename
   * is checked (it cannot be pinned meanwhile). Both lock the primary key only, so the two
   * never wait on each other in opposite orders. SQLite needs no lock: its writers take turns.
   */
  lockById(
    manager: EntityManager,
    catalog: Catalog,
    id: string,
    mode: 'share' | 'update',
  ): Promise<ToolVersionEntity | null> {
    const qb = manager
      .getRepository(ToolVersionEntity)
      .createQueryBuilder('t')
      .where('t.id = :id AND t.catalog = :catalog', { id, catalog });
    return withRowLock(qb, mode === 'share' ? 'share' : 'write').getOne();
  }

  save(manager: EntityManager, entry: ToolVersionEntity): Promise<ToolVersionEntity> {
    return manager.getRepository(ToolVersionEntity).save(entry);
  }

  async delete(manager: EntityManager, id: string): Promise<void> {
    await manager.getRepository(ToolVersionEntity).delete({ id });
  }

  /** Versions compare without regard to case, whatever the column's collation. */
  private whereVersion(qb: SelectQueryBuilder<ToolVersionEntity>, version: string): void {
    qb.andWhere('LOWER(t.version) = :version', { version: version.toLowerCase() });
  }
}
