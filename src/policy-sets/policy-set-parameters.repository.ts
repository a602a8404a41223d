import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { EntityManager, Repository } from 'typeorm';
import { PageParams } from '../common/jsonapi/pagination';
import { Page, paginate } from '../common/sql/paginate';
import { replaceSealed, sealedValuesAfter } from '../common/sql/transaction';
import { PolicySetParameterEntity } from './entities/policy-set-parameter.entity';

/** The policy_set_parameters table: parameters of policy sets, their sealed values. */
@Injectable()
export class PolicySetParametersRepository {
  constructor(
    @InjectRepository(PolicySetParameterEntity) private readonly repo: Repository<PolicySetParameterEntity>,
  ) {}

  findInSet(policySetId: string, id: string): Promise<PolicySetParameterEntity | null> {
    return this.repo.findOne({ where: { id, policySetId } });
  }

  /** A page of the set's parameters, oldest first. */
  list(policySetId: string, page: PageParams): Promise<Page<PolicySetParameterEntity>> {
    const qb = this.repo
      .createQueryBuilder('p')
      .where('p.policy_set_id = :id', { id: policySetId })
      .orderBy('p.created_at', 'ASC')
      .addOrderBy('p.id', 'ASC');
    return paginate(qb, page);
  }

  /** Every parameter of the set, oldest first. */
  ofSet(policySetId: string): Promise<PolicySetParameterEntity[]> {
    return this.repo.find({ where: { policySetId }, order: { createdAt: 'ASC', id: 'ASC' } });
  }

  async insert(manager: EntityManager, parameter: PolicySetParameterEntity): Promise<void> {
    await manager.getRepository(PolicySetParameterEntity).insert({ ...parameter });
  }

  async update(manager: EntityManager, parameter: PolicySetParameterEntity): Promise<void> {
    const { id, ...rest } = parameter;
    await manager.getRepository(PolicySetParameterEntity).update({ id }, rest);
  }

  async delete(manager: EntityManager, id: string): Promise<void> {
    await manager.getRepository(PolicySetParameterEntity).delete({ id });
  }

  /** Sealed values in id order after `afterId` (for a key rotation). */
  sealedValues(afterId: string, limit: number): Promise<{ id: string; wrapped: string }[]> {
    return sealedValuesAfter(this.repo, afterId, limit);
  }

  replaceSealedValue(manager: EntityManager, id: string, from: string, to: string): Promise<boolean> {
    return replaceSealed(manager, PolicySetParameterEntity, { id }, 'sealedValue', from, to);
  }
}
