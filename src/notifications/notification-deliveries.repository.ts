import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { RowReader } from '../common/sql/row-reader';
import { RowWriter } from '../common/sql/row-writer';
import { expand } from '../common/sql/sql-page';
import { writeWith } from '../common/sql/transaction';
import { NotificationDeliveryEntity } from './entities/notification-delivery.entity';

export type DeliveryStatus = 'due' | 'sending' | 'delivered' | 'failed';

/** A delivery some node may take now, the attempt count its claim must find, and what it sends. */
export interface DueDelivery {
  id: string;
  attempts: number;
  configurationId: string;
  /** JSON of the run event (RunEvent). */
  event: string;
  dueAt: Date;
}

/**
 * The outbox in plain SQL throughout (RowReader, RowWriter): a batch inserted in the transaction of
 * every run move that notifies, and each delivery polled, claimed and settled by the nodes.
 */
@Injectable()
export class NotificationDeliveriesRepository {
  private readonly rows: RowReader<NotificationDeliveryEntity>;
  private readonly writes: RowWriter<NotificationDeliveryEntity>;

  constructor(@InjectDataSource() private readonly ds: DataSource) {
    this.rows = new RowReader(ds, NotificationDeliveryEntity);
    this.writes = new RowWriter(ds, NotificationDeliveryEntity);
  }

  insertMany(manager: EntityManager, rows: NotificationDeliveryEntity[]): Promise<void> {
    return this.writes.insertMany(rows, manager);
  }

  /**
   * The oldest deliveries due by `now`: waiting ones, and sending ones whose claim lapsed (their
   * node died mid-send). One range of ix_notification_deliveries_due per status, read in index
   * order: a single `status IN (…)` sorts every due row on each poll, however long the backlog.
   */
  async due(now: Date, limit: number): Promise<DueDelivery[]> {
    const read = (status: DeliveryStatus) => {
      const [sql, params] = expand(
        this.ds,
        `SELECT ${this.rows.select('d')} FROM notification_deliveries d
          WHERE d.status = :status AND d.due_at <= :now ORDER BY d.due_at ASC LIMIT :limit`,
        { status, now, limit },
      );
      return this.rows.many(sql, params, 'd');
    };
    const [waiting, lapsed] = await Promise.all([read('due'), read('sending')]);
    return [...waiting, ...lapsed]
      .sort((x, y) => x.dueAt.getTime() - y.dueAt.getTime() || (x.id < y.id ? -1 : 1))
      .slice(0, limit)
      .map((r) => ({
        id: r.id,
        attempts: r.attempts,
        configurationId: r.configurationId,
        event: r.event,
        dueAt: r.dueAt,
      }));
  }

  /**
   * The compare-and-set that makes a claim exactly-once: only the node whose update finds the
   * attempt count it read moves the delivery to `sending` (with a claim that lapses at
   * `leaseUntil`). Several in one transaction, in id order (two nodes lock rows in the same order,
   * so they cannot deadlock): one commit for the batch. Returns those this node took.
   */
  async claim(
    manager: EntityManager,
    due: DueDelivery[],
    now: Date,
    leaseUntil: Date,
  ): Promise<DueDelivery[]> {
    const taken: DueDelivery[] = [];
    for (const d of [...due].sort((x, y) => (x.id < y.id ? -1 : 1))) {
      const [sql, params] = expand(
        this.ds,
        `UPDATE notification_deliveries SET status = 'sending', attempts = :next, due_at = :leaseUntil
          WHERE id = :id AND attempts = :attempts AND status IN ('due', 'sending') AND due_at <= :now`,
        { next: d.attempts + 1, leaseUntil, id: d.id, attempts: d.attempts, now },
      );
      if ((await writeWith(manager, sql, params)) > 0) taken.push({ ...d, attempts: d.attempts + 1 });
    }
    return taken;
  }

  /** Records how a claimed attempt ended; false when the claim lapsed and another node took it. */
  async settle(
    manager: EntityManager,
    id: string,
    attempts: number,
    changes: Partial<NotificationDeliveryEntity>,
  ): Promise<boolean> {
    return (await this.writes.update(changes, { id, attempts, status: 'sending' }, manager)) > 0;
  }
}
