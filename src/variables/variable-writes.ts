import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { randomBytes } from 'node:crypto';
import { DataSource, EntityManager } from 'typeorm';
import { whenDuplicate } from '../common/errors/db-errors';
import { taken } from '../common/errors/domain-error';
import { newId } from '../common/ids';
import { inTransaction } from '../common/sql/transaction';
import { keyDigest, SealedValues } from '../secrets/sealed-values';
import { Secrets } from '../secrets/secrets.service';
import { VariableAttributes } from './dto/variable-attributes.dto';
import { VariableCategory, VariableEntity } from './entities/variable.entity';
import { checkVariable, VariableDraft } from './variable-rules';
import { VariableOwner, VariablesRepository } from './variables.repository';

/** Runs inside the write's transaction before the row is written (a set's global-conflict check). */
export type BeforeWrite = (
  manager: EntityManager,
  variable: { key: string; category: VariableCategory },
) => Promise<void>;

const newVersionId = (): string => randomBytes(32).toString('hex');

/**
 * Writes of workspace and set variables alike: the rules, the sealing of sensitive values, the
 * one-key-per-category uniqueness (a unique index on the key's digest). A plaintext sensitive
 * value is never written anywhere but into `Secrets.seal`.
 */
@Injectable()
export class VariableWrites {
  private readonly sealed: SealedValues;

  constructor(
    private readonly repo: VariablesRepository,
    secrets: Secrets,
    @InjectDataSource() private readonly ds: DataSource,
  ) {
    this.sealed = new SealedValues(secrets, ds, 'variables');
  }

  /** The new variable of `owner` from create attributes; throws a 422 per broken rule. */
  draftNew(owner: VariableOwner, attrs: VariableAttributes): VariableEntity {
    const draft = checkVariable(attrs);
    const now = new Date();
    const v = Object.assign(new VariableEntity(), {
      id: newId('var'),
      workspaceId: 'workspaceId' in owner ? owner.workspaceId : null,
      varsetId: 'varsetId' in owner ? owner.varsetId : null,
      createdAt: now,
      updatedAt: now,
    });
    return this.apply(v, draft);
  }

  async create(
    owner: VariableOwner,
    attrs: VariableAttributes,
    before?: BeforeWrite,
  ): Promise<VariableEntity> {
    const v = this.draftNew(owner, attrs);
    await this.sealed.guarded(async (manager) => {
      await before?.(manager, v);
      await this.repo.insert(manager, v);
    });
    return v;
  }

  /**
   * Inserts variables drafted with `draftNew` in the caller's transaction (a set's create or
   * update); a key its owner already holds in that category is 422 (`key` taken).
   */
  async insertAll(manager: EntityManager, variables: readonly VariableEntity[]): Promise<void> {
    await whenDuplicate(
      async () => {
        for (const v of variables) await this.repo.insert(manager, v);
      },
      () => taken('key'),
    );
  }

  async update(
    stored: VariableEntity,
    attrs: VariableAttributes,
    options: { categoryFixed?: boolean; before?: BeforeWrite } = {},
  ): Promise<VariableEntity> {
    const draft = checkVariable(attrs, stored, options);
    const v = this.apply(Object.assign(new VariableEntity(), stored), draft, stored);
    v.updatedAt = new Date(Math.max(Date.now(), stored.updatedAt.getTime() + 1));
    await this.sealed.guarded(async (manager) => {
      await options.before?.(manager, v);
      await this.repo.update(manager, v);
    });
    return v;
  }

  async delete(id: string): Promise<void> {
    await inTransaction(this.ds, (manager) => this.repo.delete(manager, id));
  }

  /** A variable's value in clear: for the runs that use it, never for an answer. */
  plaintext(v: VariableEntity): string {
    return this.sealed.read(v);
  }

  private apply(v: VariableEntity, draft: VariableDraft, stored?: VariableEntity): VariableEntity {
    v.key = draft.key;
    v.keyDigest = keyDigest(draft.key);
    v.category = draft.category;
    v.description = draft.description;
    v.hcl = draft.hcl;
    v.versionId = newVersionId();
    this.sealed.write(v, draft, stored);
    return v;
  }
}
