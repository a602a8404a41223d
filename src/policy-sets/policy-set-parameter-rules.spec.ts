import { DomainError } from '../common/errors/domain-error';
import { checkParameter } from './policy-set-parameter-rules';

function details(f: () => unknown): string[] {
  try {
    f();
  } catch (err) {
    if (err instanceof DomainError) return err.items.map((i) => i.detail ?? '');
    throw err;
  }
  return [];
}

describe('checkParameter', () => {
  it('takes a key and the policy-set category, the value defaulting to empty', () => {
    expect(checkParameter({ key: 'limit', category: 'policy-set' })).toEqual({
      key: 'limit',
      value: '',
      sensitive: false,
    });
  });

  it('refuses a blank or long key, a missing or other category and a value past 256 KB', () => {
    expect(details(() => checkParameter({ key: '', value: 'x'.repeat(256 * 1024 + 1) }))).toEqual([
      "Key can't be blank",
      "Category can't be blank",
      'Value is too long (maximum is 262144 bytes)',
    ]);
    expect(details(() => checkParameter({ key: 'k'.repeat(129), category: 'terraform' }))).toEqual([
      'Key is too long (maximum is 128 characters)',
      'Category must be policy-set',
    ]);
  });

  it('keeps what an update leaves out, and a sensitive parameter sensitive with its key', () => {
    const stored = { key: 'token', sensitive: true };
    expect(checkParameter({ value: 'new' }, stored)).toEqual({ key: 'token', value: 'new', sensitive: true });
    expect(checkParameter({}, { key: 'a', sensitive: false })).toEqual({
      key: 'a',
      value: undefined,
      sensitive: false,
    });
    expect(details(() => checkParameter({ sensitive: false, key: 'other' }, stored))).toEqual([
      "Sensitive can't be changed from true to false on saved records. Delete the parameter and create a new one instead",
      'Key of a sensitive parameter cannot be changed: delete the parameter and create a new one',
    ]);
  });
});
