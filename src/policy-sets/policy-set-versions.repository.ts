import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { EntityManager, Repository } from 'typeorm';
import { paginate, Page } from '../common/sql/paginate';
import { RowReader } from '../common/sql/row-reader';
import { PageParams } from '../common/jsonapi/pagination';
import { PolicySetVersionEntity, PolicySetVersionStatus } from './entities/policy-set-version.entity';

@Injectable()
export class PolicySetVersionsRepository {
  private readonly rows: RowReader<PolicySetVersionEntity>;

  constructor(
    @InjectRepository(PolicySetVersionEntity) private readonly repo: Repository<PolicySetVersionEntity>,
  ) {
    this.rows = new RowReader(repo.manager.connection, PolicySetVersionEntity);
  }

  findById(id: string, manager?: EntityManager): Promise<PolicySetVersionEntity | null> {
    return (manager ?? this.repo.manager).getRepository(PolicySetVersionEntity).findOne({ where: { id } });
  }

  /** For `included` arrays of policy-set reads: plain SQL (see RowReader). */
  findByIds(ids: string[]): Promise<PolicySetVersionEntity[]> {
    return this.rows.byIds(ids);
  }

  /** Newest first: creation times are strictly increasing within a set. */
  list(policySetId: string, page: PageParams): Promise<Page<PolicySetVersionEntity>> {
    const qb = this.repo
      .createQueryBuilder('v')
      .where('v.policy_set_id = :policySetId', { policySetId })
      .orderBy('v.created_at', 'DESC')
      .addOrderBy('v.id', 'DESC');
    return paginate(qb, page);
  }

  /** Creation time of the set's newest version, read inside the transaction that adds one. */
  async latestCreatedAt(manager: EntityManager, policySetId: string): Promise<Date | null> {
    const newest = await manager.getRepository(PolicySetVersionEntity).findOne({
      where: { policySetId },
      order: { createdAt: 'DESC' },
    });
    return newest?.createdAt ?? null;
  }

  insert(manager: EntityManager, version: PolicySetVersionEntity): Promise<PolicySetVersionEntity> {
    return manager.getRepository(PolicySetVersionEntity).save(version);
  }

  /**
   * Moves a version from one status to another only if it still has the expected one: the
   * compare-and-set that makes an upload link single-use. False when another request won.
   */
  async transition(
    manager: EntityManager,
    id: string,
    from: PolicySetVersionStatus,
    changes: Partial<PolicySetVersionEntity>,
  ): Promise<boolean> {
    const result = await manager.getRepository(PolicySetVersionEntity).update({ id, status: from }, changes);
    return (result.affected ?? 0) > 0;
  }
}
