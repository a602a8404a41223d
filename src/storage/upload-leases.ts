import { Injectable, Logger } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { Clock } from '../common/clock';
import { inTransaction } from '../common/sql/transaction';
import { conflict, DomainError } from '../common/errors/domain-error';
import { randomBase62 } from '../common/ids';
import { AppConfig } from '../config/app-config';
import { BlobStore } from './blob-store';
import { UploadLeasesRepository } from './upload-leases.repository';

export interface LeaseTarget {
  /** The signed link's purpose; its handler's `recover` gets the resource back if the upload dies. */
  purpose: string;
  resourceId: string;
  blobKey: string;
}

/** Answered when a sweep gave the upload up while it still ran (its renewals had stopped arriving). */
export function leaseLost(): DomainError {
  return conflict('This upload was given up before it finished; send it again');
}

/**
 * One upload's claim. While it is held, a timer renews it; it ends either with `release` inside
 * the transaction that records the upload (so "recorded" and "no longer in progress" commit
 * together) or with `abandon` when the upload failed.
 */
export class UploadLease {
  private readonly timer: NodeJS.Timeout;

  constructor(
    private readonly leases: UploadLeases,
    readonly id: string,
    readonly owner: string,
    readonly target: LeaseTarget,
  ) {
    this.timer = setInterval(() => void this.renew(), leases.renewEveryMs());
    this.timer.unref();
  }

  private async renew(): Promise<void> {
    if (!(await this.leases.renew(this))) clearInterval(this.timer);
  }

  /** In the caller's transaction: ends the lease; false when a sweep took it over meanwhile. */
  release(manager: EntityManager): Promise<boolean> {
    clearInterval(this.timer);
    return this.leases.release(manager, this);
  }

  /**
   * The upload failed: deletes its blob, then ends the lease and, if it was still held, runs
   * `revert` in the same transaction (e.g. the version goes back to waiting for its file).
   */
  async abandon(revert?: (manager: EntityManager) => Promise<unknown>): Promise<void> {
    clearInterval(this.timer);
    await this.leases.abandon(this, revert);
  }
}

/** Claims on uploads in progress, stored in the database so every node sees them. */
@Injectable()
export class UploadLeases {
  private readonly logger = new Logger(UploadLeases.name);

  constructor(
    private readonly repo: UploadLeasesRepository,
    private readonly blobs: BlobStore,
    private readonly config: AppConfig,
    private readonly clock: Clock,
    @InjectDataSource() private readonly ds: DataSource,
  ) {}

  renewEveryMs(): number {
    return Math.max(200, (this.config.uploadLeaseSeconds * 1000) / 3);
  }

  expiry(): Date {
    return new Date(this.clock.now().getTime() + this.config.uploadLeaseSeconds * 1000);
  }

  /** In the caller's transaction (the one that marks the resource as receiving its upload). */
  async take(manager: EntityManager, target: LeaseTarget): Promise<UploadLease> {
    const id = randomBase62(24);
    const owner = randomBase62(24);
    await this.repo.insert(manager, {
      id,
      owner,
      purpose: target.purpose,
      resourceId: target.resourceId,
      blobKey: target.blobKey,
      expiresAt: this.expiry(),
      createdAt: this.clock.now(),
    });
    return new UploadLease(this, id, owner, target);
  }

  /** A lease in a transaction of its own, for uploads that mark nothing while they run. */
  begin(target: LeaseTarget): Promise<UploadLease> {
    return inTransaction(this.ds, (manager) => this.take(manager, target));
  }

  async renew(lease: UploadLease): Promise<boolean> {
    try {
      return await inTransaction(this.ds, (m) => this.repo.renew(m, lease.id, lease.owner, this.expiry()));
    } catch (err) {
      // A database hiccup: keep renewing; the lease survives one missed renewal of three.
      this.logger.warn({ err, lease: lease.id }, 'could not renew an upload lease');
      return true;
    }
  }

  release(manager: EntityManager, lease: UploadLease): Promise<boolean> {
    return this.repo.release(manager, lease.id, lease.owner);
  }

  async abandon(lease: UploadLease, revert?: (manager: EntityManager) => Promise<unknown>): Promise<void> {
    try {
      await this.blobs.delete(lease.target.blobKey);
    } catch (err) {
      // The lease stays and expires: the sweep deletes the blob later.
      this.logger.warn({ err, lease: lease.id }, 'could not delete the blob of a failed upload');
      return;
    }
    await inTransaction(this.ds, async (m) => {
      if ((await this.release(m, lease)) && revert) await revert(m);
    });
  }
}
