import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { EntityManager, In, Repository } from 'typeorm';
import { likeCondition, likePattern } from '../common/sql/like';
import { paginate, Page } from '../common/sql/paginate';
import { PageParams } from '../common/jsonapi/pagination';
import { PolicyEntity } from './entities/policy.entity';
import { PolicyKind } from './policy-kinds';
import { RowReader } from '../common/sql/row-reader';

export interface PolicyListFilter {
  organizationId: string;
  search?: string;
  kind?: PolicyKind;
}

@Injectable()
export class PoliciesRepository {
  private readonly rows: RowReader<PolicyEntity>;

  constructor(@InjectRepository(PolicyEntity) private readonly repo: Repository<PolicyEntity>) {
    this.rows = new RowReader(repo.manager.connection, PolicyEntity);
  }

  findById(id: string): Promise<PolicyEntity | null> {
    return this.repo.findOne({ where: { id } });
  }

  /** Plain SQL (see RowReader): includes of whole pages read these; in a transaction, through its manager. */
  findByIds(ids: string[], manager?: EntityManager): Promise<PolicyEntity[]> {
    if (manager) {
      return ids.length
        ? manager.getRepository(PolicyEntity).find({ where: { id: In(ids) } })
        : Promise.resolve([]);
    }
    return this.rows.byIds(ids);
  }

  list(filter: PolicyListFilter, page: PageParams): Promise<Page<PolicyEntity>> {
    const qb = this.repo
      .createQueryBuilder('p')
      .where('p.organization_id = :org', { org: filter.organizationId })
      .orderBy('p.name', 'ASC')
      .addOrderBy('p.id', 'ASC');
    if (filter.search) qb.andWhere(likeCondition('p.name', 'search'), { search: likePattern(filter.search) });
    if (filter.kind) qb.andWhere('p.kind = :kind', { kind: filter.kind });
    return paginate(qb, page);
  }

  save(manager: EntityManager, policy: PolicyEntity): Promise<PolicyEntity> {
    return manager.getRepository(PolicyEntity).save(policy);
  }

  /** Records uploaded code; false when the policy no longer exists. */
  async recordCode(
    manager: EntityManager,
    id: string,
    size: number,
    sha256: string,
    at: Date,
  ): Promise<boolean> {
    const result = await manager
      .getRepository(PolicyEntity)
      .update({ id }, { codeSize: size, codeSha256: sha256, updatedAt: at });
    return (result.affected ?? 0) > 0;
  }

  async delete(manager: EntityManager, id: string): Promise<void> {
    await manager.getRepository(PolicyEntity).delete({ id });
  }
}
