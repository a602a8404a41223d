import { createHash } from 'node:crypto';
import { DataSource, EntityManager } from 'typeorm';
import { whenDuplicate } from '../common/errors/db-errors';
import { notFound, taken, Violations } from '../common/errors/domain-error';
import { inTransaction } from '../common/sql/transaction';
import { Secrets } from './secrets.service';

/*
 * Key/value rows with a `sensitive` flag (variables, policy-set parameters): while a row is
 * sensitive its value is kept only sealed, bound to the row's id, and is never shown again. Each
 * module keeps its own table; this is the code they share for the keys, values and sealing.
 */

export const MAX_KEY_CHARS = 128;
/** 256 KB of UTF-8. */
export const MAX_VALUE_BYTES = 256 * 1024;

/** The columns of a row whose value is sealed while it is sensitive. */
export interface SealedValueRow {
  id: string;
  sensitive: boolean;
  /** The value of a row that is not sensitive; null while it is. */
  value: string | null;
  /** The sealed value of a sensitive row; null otherwise. */
  sealedValue: string | null;
}

/** A row's value after a create or an update, before it is stored (`value` undefined: unchanged). */
export interface SealedValueDraft {
  value: string | undefined;
  sensitive: boolean;
}

/**
 * SHA-256 of a key, for the unique index on keys: MySQL's collations would take `foo` and `FOO` for
 * the same key, and the services compare keys case-sensitively.
 */
export const keyDigest = (key: string): string => createHash('sha256').update(key, 'utf8').digest('hex');

/** The value on the wire: null for a sensitive row, whoever asks. */
export function shownValue(row: SealedValueRow): string | null {
  return row.sensitive ? null : (row.value ?? '');
}

const chars = (s: string) => [...s].length;

/** Why a key cannot be stored (blank, or longer than 128 characters), or null. */
export function keyProblem(key: string): string | null {
  if (!key) return "can't be blank";
  if (chars(key) > MAX_KEY_CHARS) return `is too long (maximum is ${MAX_KEY_CHARS} characters)`;
  return null;
}

/**
 * The value a create (empty when not sent) or an update (undefined when not sent: unchanged)
 * writes, noting a value over 256 KB. No message repeats a value: a sensitive one would leak.
 */
export function checkValue(v: Violations, sent: string | undefined, isUpdate: boolean): string | undefined {
  const value = sent ?? (isUpdate ? undefined : '');
  if (value !== undefined && Buffer.byteLength(value) > MAX_VALUE_BYTES)
    v.attribute('value', `is too long (maximum is ${MAX_VALUE_BYTES} bytes)`);
  return value;
}

/**
 * A stored sensitive row stays sensitive, and keeps the attributes its sealed value belongs to
 * (`fixed`): a change of either is noted. `noun` names the row in the messages (`variable`).
 */
export function checkStaysSensitive<K extends string>(
  v: Violations,
  noun: string,
  sent: { sensitive?: boolean } & Partial<Record<K, unknown>>,
  stored: { sensitive: boolean } & Record<K, unknown>,
  fixed: readonly K[],
): void {
  if (!stored.sensitive) return;
  if (sent.sensitive === false) {
    v.attribute(
      'sensitive',
      `can't be changed from true to false on saved records. Delete the ${noun} and create a new one instead`,
    );
  }
  for (const name of fixed) {
    const value = sent[name];
    if (value !== undefined && value !== stored[name]) {
      v.attribute(name, `of a sensitive ${noun} cannot be changed: delete the ${noun} and create a new one`);
    }
  }
}

/**
 * The sealing of one table's sensitive values, and its writes. A plaintext sensitive value is
 * never written anywhere but into `Secrets.seal`, under the context `<table>/<row id>`.
 */
export class SealedValues {
  constructor(
    private readonly secrets: Secrets,
    private readonly ds: DataSource,
    /** The table, as the seal's context names it (`variables`). */
    private readonly table: string,
  ) {}

  private context(id: string): string {
    return `${this.table}/${id}`;
  }

  /**
   * Sets the row's value from a draft: the value sent, or the stored one when none was (sealed
   * when the row has just become sensitive). A sensitive row keeps only the sealed value.
   */
  write(row: SealedValueRow, draft: SealedValueDraft, stored?: SealedValueRow): void {
    row.sensitive = draft.sensitive;
    const value = draft.value ?? (stored && !stored.sensitive ? (stored.value ?? '') : undefined);
    if (draft.sensitive) {
      if (value !== undefined) row.sealedValue = this.secrets.seal(value, this.context(row.id));
      row.value = null;
    } else {
      row.value = value ?? '';
      row.sealedValue = null;
    }
  }

  /** The value in clear: for the work that uses it, never for an answer. */
  read(row: SealedValueRow): string {
    if (!row.sensitive) return row.value ?? '';
    return row.sealedValue ? this.secrets.open(row.sealedValue, this.context(row.id)).toString('utf8') : '';
  }

  /**
   * A write in one transaction, guarded by the table's unique index on keys: a duplicate is 422
   * (`key` taken), and an owner that went away since it was read is 404.
   */
  async guarded(work: (manager: EntityManager) => Promise<void>): Promise<void> {
    await whenDuplicate(
      () => inTransaction(this.ds, work),
      () => taken('key'),
      () => notFound(),
    );
  }
}
