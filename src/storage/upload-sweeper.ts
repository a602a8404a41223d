import { Injectable, Logger, OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { Clock } from '../common/clock';
import { inTransaction } from '../common/sql/transaction';
import { randomBase62 } from '../common/ids';
import { AppConfig } from '../config/app-config';
import { BlobStore } from './blob-store';
import { UploadLeaseEntity } from './entities/upload-lease.entity';
import { UploadLeases } from './upload-leases';
import { UploadLeasesRepository } from './upload-leases.repository';
import { UploadRegistry } from './upload-registry';

/** Expired leases handled per pass; the next pass takes the rest. */
const BATCH = 100;

/**
 * Finishes what crashed processes left half-done: at start and then periodically, every expired
 * upload lease (its process stopped renewing it) loses its blob and its resource goes back to its
 * module, and temporary files older than the longest allowed upload are removed. Any node may run
 * it at any time: a lease is taken over only while expired, so an upload in progress elsewhere is
 * never touched, and of several nodes sweeping at once only one handles each lease.
 */
@Injectable()
export class UploadSweeper implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger(UploadSweeper.name);
  private timer?: NodeJS.Timeout;
  private running?: Promise<void>;

  constructor(
    private readonly repo: UploadLeasesRepository,
    private readonly leases: UploadLeases,
    private readonly registry: UploadRegistry,
    private readonly blobs: BlobStore,
    private readonly config: AppConfig,
    private readonly clock: Clock,
    @InjectDataSource() private readonly ds: DataSource,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    await this.sweep();
    const every = (Math.min(this.config.uploadLeaseSeconds, this.config.uploadTimeoutSeconds) * 1000) / 2;
    this.timer = setInterval(() => void this.sweep(), every);
    this.timer.unref();
  }

  async onApplicationShutdown(): Promise<void> {
    clearInterval(this.timer);
    await this.running;
  }

  /** One pass; a pass already under way is joined rather than doubled. */
  sweep(): Promise<void> {
    this.running ??= this.pass().finally(() => (this.running = undefined));
    return this.running;
  }

  private async pass(): Promise<void> {
    try {
      for (const lease of await this.repo.expired(this.clock.now(), BATCH)) await this.recover(lease);
      const cutoff = new Date(this.clock.now().getTime() - this.config.uploadTimeoutSeconds * 1000);
      await this.blobs.sweepTemporary(cutoff);
    } catch (err) {
      this.logger.warn({ err }, 'the sweep of interrupted uploads failed; the next one retries');
    }
  }

  /** True when this pass took the lease over and gave the resource back. */
  private async recover(lease: UploadLeaseEntity): Promise<boolean> {
    const owner = randomBase62(24);
    const taken = await inTransaction(this.ds, (m) =>
      this.repo.takeOver(m, lease.id, this.clock.now(), owner, this.leases.expiry()),
    );
    if (!taken) return false;
    await this.blobs.delete(lease.blobKey);
    const handler = this.registry.upload(lease.purpose);
    await inTransaction(this.ds, async (m) => {
      if ((await this.repo.release(m, lease.id, owner)) && handler?.recover) {
        await handler.recover(m, lease.resourceId);
      }
    });
    this.logger.log({ purpose: lease.purpose, resource: lease.resourceId }, 'swept an interrupted upload');
    return true;
  }
}
