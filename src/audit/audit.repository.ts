import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { pruneInBatches } from '../common/sql/batched-prune';
import { inTransaction, writeWith } from '../common/sql/transaction';
import { readRows } from '../persistence/pool-reads';
import { PageParams } from '../common/jsonapi/pagination';
import { offsetOf } from '../common/jsonapi/pagination';
import { Page, pageOf } from '../common/sql/paginate';
import { RowReader } from '../common/sql/row-reader';
import { RowWriter } from '../common/sql/row-writer';
import { timeOf } from '../common/sql/columns';
import { applyCounts, countSince, lockForDelete } from './audit-counts';
import { AuditEventEntity } from './entities/audit-event.entity';

/** Rows per INSERT: well inside both dialects' limits on bound parameters (17 columns each). */
const INSERT_CHUNK = 500;
/** Rows per DELETE while pruning, so a large backlog never holds a long lock. */
const PRUNE_CHUNK = 500;
/** The pause between two DELETEs of a prune, so that a backlog of millions leaves the API room. */
const PRUNE_PAUSE_MS = 500;

export interface AuditFilter {
  /** Internal organization id; undefined: every organization (site administrators). */
  organizationId?: string;
  /** Events after this instant. */
  since?: Date;
}

/** Plain SQL throughout (RowReader, RowWriter, statement text): every write request records here. */
@Injectable()
export class AuditRepository {
  private readonly writer: RowWriter<AuditEventEntity>;
  private readonly reader: RowReader<AuditEventEntity>;

  constructor(@InjectDataSource() private readonly ds: DataSource) {
    this.writer = new RowWriter(ds, AuditEventEntity);
    this.reader = new RowReader(ds, AuditEventEntity);
  }

  /**
   * One multi-row INSERT per chunk, in a transaction of its own: on SQLite a bare statement would
   * join whichever transaction another request has open on the one connection.
   */
  insertMany(events: AuditEventEntity[]): Promise<void> {
    return inTransaction(this.ds, (m) => this.insertChunks(m, events));
  }

  private async insertChunks(manager: EntityManager, events: AuditEventEntity[]): Promise<void> {
    for (let i = 0; i < events.length; i += INSERT_CHUNK) {
      await this.writer.insertMany(events.slice(i, i + INSERT_CHUNK), manager);
    }
    await applyCounts(manager, events, 1);
  }

  /**
   * Oldest first, so a client paging with `since` is not shifted by events that arrive meanwhile
   * (`sort` replaces the order, `id` last). The total comes from the daily and hourly counts
   * (audit-counts.ts), not a COUNT over every event since. An organization's page is a range of
   * the primary key (organization, time, id). On MariaDB the page names it: with ORDER BY … LIMIT
   * the optimizer may read the organization's events from its first (a `ref` on the organization
   * with `since` checked row by row) instead of seeking to `since`, 0.3 s at a million events.
   */
  async list(filter: AuditFilter, page: PageParams): Promise<Page<AuditEventEntity>> {
    const where: string[] = [];
    const params: unknown[] = [];
    if (filter.organizationId !== undefined) {
      where.push('e.organization_id = ?');
      params.push(filter.organizationId);
    }
    if (filter.since) {
      where.push('e.occurred_at > ?');
      params.push(timeOf(this.ds, AuditEventEntity, 'occurredAt', filter.since));
    }
    const keys = page.sort?.length
      ? page.sort.map((k) => ({ column: this.columnOf(k.property), descending: k.descending }))
      : [{ column: 'occurred_at', descending: false }];
    const order = [...keys, { column: 'id', descending: keys[keys.length - 1].descending }]
      .map((k) => `e.${k.column} ${k.descending ? 'DESC' : 'ASC'}`)
      .join(', ');
    const mysql = this.ds.options.type !== 'better-sqlite3';
    const hint = mysql && filter.organizationId !== undefined && filter.since ? ' FORCE INDEX (PRIMARY)' : '';
    const sql =
      `SELECT ${this.reader.select('e')} FROM ${this.reader.table} e${hint}` +
      (where.length ? ` WHERE ${where.join(' AND ')}` : '') +
      ` ORDER BY ${order} LIMIT ${Number(page.size)} OFFSET ${Number(offsetOf(page))}`;
    const [items, total] = await Promise.all([
      this.reader.many(sql, params, 'e'),
      countSince(this.ds, filter.organizationId, filter.since),
    ]);
    return pageOf(items, total, page);
  }

  private columnOf(property: string): string {
    return this.ds.getMetadata(AuditEventEntity).findColumnWithPropertyName(property)!.databaseName;
  }

  /**
   * Deletes events older than `before`, PRUNE_CHUNK at a time with a pause between; how many went.
   * Several processes may prune at once: each chunk locks what is left of it before deleting.
   */
  pruneBefore(before: Date, pauseMs = PRUNE_PAUSE_MS): Promise<number> {
    const step = async () => {
      const old = await readRows<{ id: string }>(
        this.ds,
        `SELECT e.id FROM audit_events e WHERE e.occurred_at < ? ORDER BY e.occurred_at ASC LIMIT ${PRUNE_CHUNK}`,
        [timeOf(this.ds, AuditEventEntity, 'occurredAt', before)],
      );
      if (!old.length) return { found: 0, removed: 0 };
      const ids = old.map((r) => r.id);
      const removed = await inTransaction(this.ds, async (m) => {
        const held = await lockForDelete(m, ids);
        await writeWith(m, `DELETE FROM audit_events WHERE id IN (${ids.map(() => '?').join(', ')})`, ids);
        await applyCounts(m, held, -1);
        return held.length;
      });
      return { found: old.length, removed };
    };
    return pruneInBatches(step, PRUNE_CHUNK, pauseMs);
  }
}
