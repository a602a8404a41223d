import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { createHash } from 'node:crypto';
import { DataSource, EntityManager } from 'typeorm';
import { Principal } from '../common/auth/principal';
import { whenDuplicate } from '../common/errors/db-errors';
import { notFound, taken } from '../common/errors/domain-error';
import { newId } from '../common/ids';
import { PageParams } from '../common/jsonapi/pagination';
import { Page } from '../common/sql/paginate';
import { inTransaction } from '../common/sql/transaction';
import { Secrets } from '../secrets/secrets.service';
import { PolicySetParameterEntity } from './entities/policy-set-parameter.entity';
import { checkParameter, ParameterAttributes, ParameterDraft } from './policy-set-parameter-rules';
import { PolicySetParametersRepository } from './policy-set-parameters.repository';
import { PolicySetsService } from './policy-sets.service';

const sealContext = (id: string) => `policy-set-parameters/${id}`;
const keyDigest = (key: string) => createHash('sha256').update(key, 'utf8').digest('hex');

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
  constructor(
    private readonly repo: PolicySetParametersRepository,
    private readonly sets: PolicySetsService,
    private readonly secrets: Secrets,
    @InjectDataSource() private readonly ds: DataSource,
  ) {}

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
    await this.guarded((manager) => this.repo.insert(manager, parameter));
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
    await this.guarded((manager) => this.repo.update(manager, parameter));
    return parameter;
  }

  async delete(p: Principal, policySetId: string, id: string): Promise<void> {
    const parameter = await this.show(p, policySetId, id);
    await inTransaction(this.ds, (manager) => this.repo.delete(manager, parameter.id));
  }

  /** The set's parameters with values in clear: for its policy evaluations only, never for an answer. */
  async forEvaluation(policySetId: string): Promise<EvaluationParameter[]> {
    const rows = await this.repo.ofSet(policySetId);
    return rows.map((r) => ({
      key: r.key,
      value: r.sensitive
        ? r.sealedValue
          ? this.secrets.open(r.sealedValue, sealContext(r.id)).toString('utf8')
          : ''
        : (r.value ?? ''),
      sensitive: r.sensitive,
    }));
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
    p.sensitive = draft.sensitive;
    // The value sent, or the stored one (sealed when the parameter has just become sensitive).
    const value = draft.value ?? (stored && !stored.sensitive ? (stored.value ?? '') : undefined);
    if (draft.sensitive) {
      if (value !== undefined) p.sealedValue = this.secrets.seal(value, sealContext(p.id));
      p.value = null;
    } else {
      p.value = value ?? '';
      p.sealedValue = null;
    }
    return p;
  }

  private async guarded(work: (manager: EntityManager) => Promise<void>): Promise<void> {
    await whenDuplicate(
      () => inTransaction(this.ds, work),
      () => taken('key'),
      // The set went away since it was read.
      () => notFound(),
    );
  }
}
