import { Injectable, Logger, BeforeApplicationShutdown, OnModuleInit } from '@nestjs/common';
import { AppConfig } from '../config/app-config';
import { AuditRepository } from './audit.repository';
import { AuditEventEntity } from './entities/audit-event.entity';

/** Events are written together: a second after the first one waiting, or at once when this many wait. */
const FLUSH_DELAY_MS = 1_000;
const FLUSH_AT = 200;
/** Beyond this many waiting (the database is away), the oldest are dropped and counted in the log. */
const MAX_WAITING = 50_000;
const PRUNE_EVERY_MS = 3_600_000;
/** The first prune waits for start-up to settle. */
const FIRST_PRUNE_AFTER_MS = 60_000;
const DAY_MS = 86_400_000;

/**
 * Keeps write events in memory and inserts them in batches, so a write pays for an array push, not
 * a round trip. An event reaches the table within about a second (sooner under load); a reader in
 * this process first writes what waits here (`flush`), so its own writes are there. What waits is
 * written at shutdown; a process that crashes loses at most its last second of events.
 * `AUDIT_RETENTION_DAYS` bounds how long events stay: every process prunes hourly (deletes are
 * idempotent, so several processes pruning is harmless); 0 records nothing.
 */
@Injectable()
export class AuditRecorder implements OnModuleInit, BeforeApplicationShutdown {
  private readonly logger = new Logger('AuditTrail');
  private waiting: AuditEventEntity[] = [];
  private timer: NodeJS.Timeout | undefined;
  private pruneTimer: NodeJS.Timeout | undefined;
  private writing: Promise<void> = Promise.resolve();
  private dropped = 0;

  constructor(
    private readonly repo: AuditRepository,
    private readonly config: AppConfig,
  ) {}

  get enabled(): boolean {
    return this.config.auditRetentionDays > 0;
  }

  onModuleInit(): void {
    if (!this.enabled) return;
    this.pruneTimer = setTimeout(() => this.pruneOnSchedule(), FIRST_PRUNE_AFTER_MS).unref();
  }

  record(event: AuditEventEntity): void {
    if (!this.enabled) return;
    if (this.waiting.length >= MAX_WAITING) {
      this.waiting.shift();
      this.dropped += 1;
    }
    this.waiting.push(event);
    if (this.waiting.length >= FLUSH_AT) void this.flush();
    else this.timer ??= setTimeout(() => void this.flush(), FLUSH_DELAY_MS).unref();
  }

  /** Writes every event waiting now; resolves once they (and any batch before them) are stored. */
  flush(): Promise<void> {
    clearTimeout(this.timer);
    this.timer = undefined;
    const batch = this.waiting;
    this.waiting = [];
    // One batch at a time, in order: a reader's flush also waits for the batch already under way.
    this.writing = this.writing.then(() => this.write(batch));
    return this.writing;
  }

  /** Deletes events older than the retention; how many went. */
  prune(now = new Date()): Promise<number> {
    return this.repo.pruneBefore(new Date(now.getTime() - this.config.auditRetentionDays * DAY_MS));
  }

  async beforeApplicationShutdown(): Promise<void> {
    clearTimeout(this.pruneTimer);
    await this.flush();
  }

  private async write(batch: AuditEventEntity[]): Promise<void> {
    if (this.dropped) {
      this.logger.warn(`dropped ${this.dropped} audit events while the database could not take them`);
      this.dropped = 0;
    }
    if (!batch.length) return;
    try {
      await this.repo.insertMany(batch);
    } catch (err) {
      // Kept for the next batch: the events are not lost to a short database outage.
      this.waiting = batch.concat(this.waiting).slice(-MAX_WAITING);
      this.timer ??= setTimeout(() => void this.flush(), FLUSH_DELAY_MS * 5).unref();
      this.logger.warn(`could not store ${batch.length} audit events, will retry: ${String(err)}`);
    }
  }

  private pruneOnSchedule(): void {
    this.prune().then(
      (removed) => removed && this.logger.log(`pruned ${removed} audit events past retention`),
      (err: unknown) => this.logger.warn(`could not prune the audit trail: ${String(err)}`),
    );
    this.pruneTimer = setTimeout(() => this.pruneOnSchedule(), PRUNE_EVERY_MS).unref();
  }
}
