import { randomBytes } from 'node:crypto';
import { DataSource } from 'typeorm';
import { DomainError, Violations } from '../common/errors/domain-error';
import { KeyRing } from './key-ring';
import {
  checkStaysSensitive,
  checkValue,
  keyProblem,
  SealedValueRow,
  SealedValues,
  shownValue,
} from './sealed-values';
import { Secrets } from './secrets.service';

const secrets = new Secrets(KeyRing.of(randomBytes(32)));
const store = new SealedValues(secrets, {} as DataSource, 'things');

const row = (id: string): SealedValueRow => ({ id, sensitive: false, value: null, sealedValue: null });

function problems(check: (v: Violations) => void): { detail?: string; pointer?: string }[] {
  const v = new Violations();
  check(v);
  try {
    v.throwIfAny();
    return [];
  } catch (err) {
    if (!(err instanceof DomainError)) throw err;
    return err.items.map((i) => ({ detail: i.detail, pointer: i.pointer }));
  }
}

describe('sealed values', () => {
  it('keeps a sensitive value only sealed, bound to its row, and reads it back', () => {
    const r = row('a1');
    store.write(r, { value: 'hunter2', sensitive: true });
    expect(r).toMatchObject({ sensitive: true, value: null });
    expect(r.sealedValue).not.toContain('hunter2');
    expect(store.read(r)).toBe('hunter2');
    expect(shownValue(r)).toBeNull();
    expect(() => secrets.open(r.sealedValue!, 'things/other')).toThrow();
  });

  it('seals the stored value when a row becomes sensitive, and keeps a sealed one when no value is sent', () => {
    const stored = row('b1');
    store.write(stored, { value: 'plain', sensitive: false });
    expect(shownValue(stored)).toBe('plain');
    const now = { ...stored };
    store.write(now, { value: undefined, sensitive: true }, stored);
    expect(now.value).toBeNull();
    expect(store.read(now)).toBe('plain');
    const later = { ...now };
    store.write(later, { value: undefined, sensitive: true }, now);
    expect(later.sealedValue).toBe(now.sealedValue);
  });

  it('checks keys, values and what a sensitive row may not change, naming no value', () => {
    expect(keyProblem('')).toBe("can't be blank");
    expect(keyProblem('k'.repeat(129))).toBe('is too long (maximum is 128 characters)');
    expect(keyProblem('k'.repeat(128))).toBeNull();
    expect(problems((v) => checkValue(v, 'x'.repeat(256 * 1024 + 1), false))).toEqual([
      { detail: 'Value is too long (maximum is 262144 bytes)', pointer: '/data/attributes/value' },
    ]);
    const stored = { sensitive: true, key: 'k' };
    expect(
      problems((v) => checkStaysSensitive(v, 'thing', { sensitive: false, key: 'j' }, stored, ['key'])),
    ).toEqual([
      {
        detail:
          "Sensitive can't be changed from true to false on saved records. Delete the thing and create a new one instead",
        pointer: '/data/attributes/sensitive',
      },
      {
        detail: 'Key of a sensitive thing cannot be changed: delete the thing and create a new one',
        pointer: '/data/attributes/key',
      },
    ]);
    expect(
      problems((v) =>
        checkStaysSensitive(v, 'thing', { key: 'j' }, { ...stored, sensitive: false }, ['key']),
      ),
    ).toEqual([]);
  });
});
