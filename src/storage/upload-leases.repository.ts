import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { EntityManager, LessThan, Repository } from 'typeorm';
import { UploadLeaseEntity } from './entities/upload-lease.entity';

@Injectable()
export class UploadLeasesRepository {
  constructor(@InjectRepository(UploadLeaseEntity) private readonly repo: Repository<UploadLeaseEntity>) {}

  async insert(manager: EntityManager, lease: UploadLeaseEntity): Promise<void> {
    await manager.getRepository(UploadLeaseEntity).insert(lease);
  }

  /** Pushes the expiry of a lease its owner still holds; false once it was released or taken over. */
  async renew(manager: EntityManager, id: string, owner: string, expiresAt: Date): Promise<boolean> {
    const result = await manager.getRepository(UploadLeaseEntity).update({ id, owner }, { expiresAt });
    return (result.affected ?? 0) > 0;
  }

  /** Deletes a lease its owner still holds; false when another holder has it (or it is gone). */
  async release(manager: EntityManager, id: string, owner: string): Promise<boolean> {
    const result = await manager.getRepository(UploadLeaseEntity).delete({ id, owner });
    return (result.affected ?? 0) > 0;
  }

  /** Oldest expired leases first, at most `limit`. */
  expired(now: Date, limit: number): Promise<UploadLeaseEntity[]> {
    return this.repo.find({ where: { expiresAt: LessThan(now) }, order: { expiresAt: 'ASC' }, take: limit });
  }

  /**
   * Makes `owner` the holder of a lease that is still expired: a compare-and-set, so of several
   * nodes sweeping at once exactly one takes it, and a live upload's renewed lease is never taken.
   */
  async takeOver(
    manager: EntityManager,
    id: string,
    now: Date,
    owner: string,
    expiresAt: Date,
  ): Promise<boolean> {
    const result = await manager
      .getRepository(UploadLeaseEntity)
      .update({ id, expiresAt: LessThan(now) }, { owner, expiresAt });
    return (result.affected ?? 0) > 0;
  }
}
