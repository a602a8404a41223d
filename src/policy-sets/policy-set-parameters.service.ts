import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { Principal } from '../common/auth/principal';
import { notFound } from '../common/errors/domain-error';
import { newId } from '../common/ids';
import { PageParams } from '../common/jsonapi/pagination';
import { Page } from '../common/sql/paginate';
import { inTransaction } from '../common/sql/transaction';
import { keyDigest, SealedValues } from '../secrets/sealed-values';
import { Secrets } from '../secrets/secrets.service';
import { PolicySetParameterEntity } from './entities/policy-set-parameter.entity';
import { checkParameter, ParameterAttributes, ParameterDraft } from './policy-set-parameter-rules';
import { PolicySetParametersRepository } from './policy-set-parameters.repository';
import { PolicySetsService } from './policy-sets.service';

/** A parameter as a policy engine receives it, value in clear. */
export interface EvaluationParameter {
  key: string;
  value: string;
  sensitive: boolean;
}

/**
 * Parameters of policy sets (`/policy-sets/:id/parameters`): managed by whoever manages the set
 * (`manage-policies`), sensitive values sealed like sensitive variables and never answered, and
 * handed in clear only to the set's policy evaluations.
 */
@Injectable()
export class PolicySetParametersService {
  private readonly sealed: SealedValues;

  constructor(
    private readonly repo: PolicySetParametersRepository,
    private readonly sets: PolicySetsService,
    secrets: Secrets,
    @InjectDataSource() private readonly ds: DataSource,
  ) {
    this.sealed = new SealedValues(secrets, ds, 'policy-set-parameters');
  }

  async create(
    p: Principal,
    policySetId: string,
    attrs: ParameterAttributes,
  ): Promise<PolicySetParameterEntity> {
    const set = await this.sets.requireManageable(p, policySetId);
    const now = new Date();
    const parameter = Object.assign(new PolicySetParameterEntity(), {
      id: newId('var'),
      policySetId: set.id,
      createdAt: now,
      updatedAt: now,
    });
    this.apply(parameter, checkParameter(attrs));
    await this.sealed.guarded((manager) => this.repo.insert(manager, parameter));
    return parameter;
  }

  async list(p: Principal, policySetId: string, page: PageParams): Promise<Page<PolicySetParameterEntity>> {
    const set = await this.sets.requireManageable(p, policySetId);
    return this.repo.list(set.id, page);
  }

  async show(p: Principal, policySetId: string, id: string): Promise<PolicySetParameterEntity> {
    const set = await this.sets.requireManageable(p, policySetId);
    const parameter = await this.repo.findInSet(set.id, id);
    if (!parameter) throw notFound();
    return parameter;
  }

  async update(
    p: Principal,
    policySetId: string,
    id: string,
    attrs: ParameterAttributes,
  ): Promise<PolicySetParameterEntity> {
    const stored = await this.show(p, policySetId, id);
    const draft = checkParameter(attrs, stored);
    const parameter = this.apply(Object.assign(new PolicySetParameterEntity(), stored), draft, stored);
    parameter.updatedAt = new Date(Math.max(Date.now(), stored.updatedAt.getTime() + 1));
    await this.sealed.guarded((manager) => this.repo.update(manager, parameter));
    return parameter;
  }

  async delete(p: Principal, policySetId: string, id: string): Promise<void> {
    const parameter = await this.show(p, policySetId, id);
    await inTransaction(this.ds, (manager) => this.repo.delete(manager, parameter.id));
  }

  /** The set's parameters with values in clear: for its policy evaluations only, never for an answer. */
  async forEvaluation(policySetId: string): Promise<EvaluationParameter[]> {
    const rows = await this.repo.ofSet(policySetId);
    return rows.map((r) => ({ key: r.key, value: this.sealed.read(r), sensitive: r.sensitive }));
  }

  sealedValues(afterId: string, limit: number): Promise<{ id: string; wrapped: string }[]> {
    return this.repo.sealedValues(afterId, limit);
  }

  replaceSealedValue(id: string, from: string, to: string): Promise<boolean> {
    return inTransaction(this.ds, (manager) => this.repo.replaceSealedValue(manager, id, from, to));
  }

  private apply(
    p: PolicySetParameterEntity,
    draft: ParameterDraft,
    stored?: PolicySetParameterEntity,
  ): PolicySetParameterEntity {
    p.key = draft.key;
    p.keyDigest = keyDigest(draft.key);
    this.sealed.write(p, draft, stored);
    return p;
  }
}
