import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { EntityManager, Repository } from 'typeorm';
import { RowWriter } from '../common/sql/row-writer';
import { NotificationDeliveryEntity } from './entities/notification-delivery.entity';

export type DeliveryStatus = 'due' | 'sending' | 'delivered' | 'failed';

/** A delivery some node may take now, and the attempt count its claim must find. */
export interface DueDelivery {
  id: string;
  attempts: number;
}

@Injectable()
export class NotificationDeliveriesRepository {
  private readonly writes: RowWriter<NotificationDeliveryEntity>;

  constructor(
    @InjectRepository(NotificationDeliveryEntity)
    private readonly repo: Repository<NotificationDeliveryEntity>,
  ) {
    this.writes = new RowWriter(repo.manager.connection, NotificationDeliveryEntity);
  }

  insertMany(manager: EntityManager, rows: NotificationDeliveryEntity[]): Promise<void> {
    return this.writes.insertMany(rows, manager);
  }

  findById(id: string): Promise<NotificationDeliveryEntity | null> {
    return this.repo.findOne({ where: { id } });
  }

  /**
   * The oldest deliveries due by `now`: waiting ones, and sending ones whose claim lapsed (their
   * node died mid-send). One lookup on ix_notification_deliveries_due per status.
   */
  async due(now: Date, limit: number): Promise<DueDelivery[]> {
    const rows = await this.repo
      .createQueryBuilder('d')
      .select(['d.id', 'd.attempts'])
      .where("d.status IN ('due', 'sending') AND d.due_at <= :now", { now })
      .orderBy('d.due_at', 'ASC')
      .addOrderBy('d.id', 'ASC')
      .limit(limit)
      .getMany();
    return rows.map((r) => ({ id: r.id, attempts: r.attempts }));
  }

  /**
   * The compare-and-set that makes a claim exactly-once: only the node whose update finds the
   * attempt count it read moves the delivery to `sending` (with a claim that lapses at `leaseUntil`).
   */
  async claim(id: string, attempts: number, now: Date, leaseUntil: Date): Promise<boolean> {
    const result = await this.repo
      .createQueryBuilder()
      .update(NotificationDeliveryEntity)
      .set({ status: 'sending', attempts: attempts + 1, dueAt: leaseUntil })
      .where("id = :id AND attempts = :attempts AND status IN ('due', 'sending') AND due_at <= :now", {
        id,
        attempts,
        now,
      })
      .execute();
    return (result.affected ?? 0) > 0;
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

  /** How many deliveries of a configuration are in each status (tests and operators). */
  countByStatus(configurationId: string): Promise<{ status: string; count: number }[]> {
    return this.repo
      .createQueryBuilder('d')
      .select('d.status', 'status')
      .addSelect('COUNT(*)', 'count')
      .where('d.configuration_id = :configurationId', { configurationId })
      .groupBy('d.status')
      .getRawMany<{ status: string; count: number }>();
  }
}
