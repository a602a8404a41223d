import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { EntityManager, Repository } from 'typeorm';
import { paginate, Page } from '../common/sql/paginate';
import { RowReader } from '../common/sql/row-reader';
import { RowWriter } from '../common/sql/row-writer';
import { PageParams } from '../common/jsonapi/pagination';
import { whenDuplicate } from '../common/errors/db-errors';
import { inTransaction } from '../common/sql/transaction';
import { ReservedTagKeyEntity } from './entities/reserved-tag-key.entity';

@Injectable()
export class ReservedTagKeysRepository {
  private readonly rows: RowReader<ReservedTagKeyEntity>;
  private readonly writer: RowWriter<ReservedTagKeyEntity>;

  constructor(
    @InjectRepository(ReservedTagKeyEntity) private readonly repo: Repository<ReservedTagKeyEntity>,
  ) {
    this.rows = new RowReader(repo.manager.connection, ReservedTagKeyEntity);
    this.writer = new RowWriter(repo.manager.connection, ReservedTagKeyEntity);
  }

  /** Plain SQL (see RowReader): every route on one key starts here. */
  async findById(id: string): Promise<ReservedTagKeyEntity | null> {
    return this.rows.byId(id);
  }

  list(organizationId: string, page: PageParams): Promise<Page<ReservedTagKeyEntity>> {
    const qb = this.repo
      .createQueryBuilder('k')
      .where('k.organization_id = :organizationId', { organizationId })
      .orderBy('k.key', 'ASC')
      .addOrderBy('k.id', 'ASC');
    return paginate(qb, page);
  }

  /** Another key of the organization equal to `key` ignoring case, the same way on both dialects. */
  findClash(
    manager: EntityManager,
    organizationId: string,
    key: string,
    exceptId: string,
  ): Promise<ReservedTagKeyEntity | null> {
    const qb = manager.getRepository(ReservedTagKeyEntity).createQueryBuilder('k');
    return qb
      .where('k.organization_id = :organizationId', { organizationId })
      .andWhere(`LOWER(k.${qb.escape('key')}) = :key`, { key: key.toLowerCase() })
      .andWhere('k.id <> :exceptId', { exceptId })
      .getOne();
  }

  /** The keys (lower-cased) among `lowerKeys` that the organization reserved with overrides disabled. */
  async overrideLocked(
    manager: EntityManager,
    organizationId: string,
    lowerKeys: string[],
  ): Promise<string[]> {
    if (!lowerKeys.length) return [];
    const qb = manager.getRepository(ReservedTagKeyEntity).createQueryBuilder('k');
    const rows = await qb
      .select('k.key', 'key')
      .where('k.organization_id = :organizationId', { organizationId })
      .andWhere('k.disable_overrides = :yes', { yes: true })
      .andWhere(`LOWER(k.${qb.escape('key')}) IN (:...keys)`, { keys: lowerKeys })
      .getRawMany<{ key: string }>();
    return rows.map((r) => r.key.toLowerCase());
  }

  /**
   * Inserts `key` unless another key of its organization equals it ignoring case: false then. On
   * MySQL/MariaDB it is one statement: the unique index compares keys in the column's collation
   * (utf8mb4_unicode_ci), which ignores case, so the insert itself refuses a clash. SQLite's index
   * compares bytes: there the check and the insert run in one transaction (its writers take turns).
   */
  async insertUnlessTaken(key: ReservedTagKeyEntity): Promise<boolean> {
    const ds = this.repo.manager.connection;
    return whenDuplicate(
      async () => {
        if (ds.options.type === 'better-sqlite3') {
          return inTransaction(ds, async (manager) => {
            if (await this.findClash(manager, key.organizationId, key.key, key.id)) return false;
            await this.writer.insert(key, manager);
            return true;
          });
        }
        await this.writer.insert(key);
        return true;
      },
      () => false,
    );
  }

  /** Writes both attributes and `updated-at` of an existing key, without reading it first. */
  async update(manager: EntityManager, key: ReservedTagKeyEntity): Promise<void> {
    await manager
      .getRepository(ReservedTagKeyEntity)
      .update(
        { id: key.id },
        { key: key.key, disableOverrides: key.disableOverrides, updatedAt: key.updatedAt },
      );
  }

  /** One statement: nothing refers to a reserved key. */
  async delete(id: string): Promise<void> {
    await this.writer.deleteById(id);
  }
}
