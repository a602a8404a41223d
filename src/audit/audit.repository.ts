import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { EntityManager, Repository } from 'typeorm';
import { inTransaction } from '../common/sql/transaction';
import { PageParams } from '../common/jsonapi/pagination';
import { offsetOf } from '../common/jsonapi/pagination';
import { Page, pageOf, sorted } from '../common/sql/paginate';
import { RowWriter } from '../common/sql/row-writer';
import { applyCounts, countSince, lockForDelete } from './audit-counts';
import { AuditEventEntity } from './entities/audit-event.entity';

/** Rows per INSERT: well inside both dialects' limits on bound parameters (16 columns each). */
const INSERT_CHUNK = 500;
/** Rows per DELETE while pruning, so a large backlog never holds a long lock. */
const PRUNE_CHUNK = 5_000;

export interface AuditFilter {
  /** Internal organization id; undefined: every organization (site administrators). */
  organizationId?: string;
  /** Events after this instant. */
  since?: Date;
}

@Injectable()
export class AuditRepository {
  private readonly writer: RowWriter<AuditEventEntity>;

  constructor(@InjectRepository(AuditEventEntity) private readonly repo: Repository<AuditEventEntity>) {
    this.writer = new RowWriter(repo.manager.connection, AuditEventEntity);
  }

  /**
   * One multi-row INSERT per chunk, in a transaction of its own: on SQLite a bare statement would
   * join whichever transaction another request has open on the one connection.
   */
  insertMany(events: AuditEventEntity[]): Promise<void> {
    return inTransaction(this.repo.manager.connection, (m) => this.insertChunks(m, events));
  }

  private async insertChunks(manager: EntityManager, events: AuditEventEntity[]): Promise<void> {
    for (let i = 0; i < events.length; i += INSERT_CHUNK) {
      await this.writer.insertMany(events.slice(i, i + INSERT_CHUNK), manager);
    }
    await applyCounts(manager, events, 1);
  }

  /**
   * Oldest first, so a client paging with `since` is not shifted by events that arrive meanwhile.
   * The total comes from the hourly counts (audit-counts.ts), not a COUNT over every event since.
   */
  async list(filter: AuditFilter, page: PageParams): Promise<Page<AuditEventEntity>> {
    const qb = this.repo.createQueryBuilder('e');
    if (filter.organizationId !== undefined)
      qb.andWhere('e.organization_id = :organizationId', { organizationId: filter.organizationId });
    if (filter.since) qb.andWhere('e.occurred_at > :since', { since: filter.since });
    // `sort` (page.sort) replaces this order; `sorted` adds `id` as the last key.
    const ordered = sorted(qb.orderBy('e.occurred_at', 'ASC').addOrderBy('e.id', 'ASC'), page);
    const [items, total] = await Promise.all([
      ordered.offset(offsetOf(page)).limit(page.size).getMany(),
      countSince(this.repo, filter.organizationId, filter.since),
    ]);
    return pageOf(items, total, page);
  }

  /** Deletes events older than `before`, a chunk at a time; how many went. */
  async pruneBefore(before: Date): Promise<number> {
    let removed = 0;
    for (;;) {
      const old = await this.repo
        .createQueryBuilder('e')
        .select('e.id', 'id')
        .where('e.occurred_at < :before', { before })
        .orderBy('e.occurred_at', 'ASC')
        .limit(PRUNE_CHUNK)
        .getRawMany<{ id: string }>();
      if (!old.length) return removed;
      await inTransaction(this.repo.manager.connection, async (m) => {
        const held = await lockForDelete(
          m,
          old.map((r) => r.id),
        );
        await m.getRepository(AuditEventEntity).delete(old.map((r) => r.id));
        await applyCounts(m, held, -1);
      });
      removed += old.length;
      if (old.length < PRUNE_CHUNK) return removed;
    }
  }
}
