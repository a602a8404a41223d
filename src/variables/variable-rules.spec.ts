import { DomainError } from '../common/errors/domain-error';
import { checkRunVariables } from './run-variable-rules';
import { checkVariable, StoredVariable } from './variable-rules';

function details(run: () => unknown): string[] {
  try {
    run();
    return [];
  } catch (err) {
    if (err instanceof DomainError) return err.items.map((i) => i.detail ?? '');
    throw err;
  }
}

const stored = (over: Partial<StoredVariable> = {}): StoredVariable => ({
  key: 'token',
  description: 'kept',
  category: 'env',
  hcl: false,
  sensitive: false,
  ...over,
});

describe('checkVariable', () => {
  it('fills the reference’s defaults on create', () => {
    expect(checkVariable({ key: 'k', category: 'terraform' })).toEqual({
      key: 'k',
      value: '',
      description: '',
      category: 'terraform',
      hcl: false,
      sensitive: false,
    });
  });

  it('keeps what an update leaves out (value: undefined, kept as stored)', () => {
    expect(checkVariable({}, stored())).toEqual({
      key: 'token',
      value: undefined,
      description: 'kept',
      category: 'env',
      hcl: false,
      sensitive: false,
    });
  });

  it('measures the key and description in characters, the value in UTF-8 bytes', () => {
    expect(details(() => checkVariable({ key: 'é'.repeat(128), category: 'terraform' }))).toEqual([]);
    expect(
      details(() => checkVariable({ key: 'k', category: 'terraform', value: 'é'.repeat(131072) })),
    ).toEqual([]);
    expect(
      details(() => checkVariable({ key: 'k', category: 'terraform', value: 'é'.repeat(131073) })),
    ).toEqual(['Value is too long (maximum is 262144 bytes)']);
  });

  it('checks the env key rule against the category after the update', () => {
    expect(
      details(() => checkVariable({ category: 'env' }, stored({ key: 'a-b', category: 'terraform' }))),
    ).toHaveLength(1);
    expect(details(() => checkVariable({ key: 'a-b' }, stored({ category: 'terraform' })))).toEqual([]);
  });

  it('lets a sensitive variable take a value or a description, nothing else', () => {
    const secret = stored({ sensitive: true });
    expect(
      details(() => checkVariable({ value: 'v', description: 'd', sensitive: true, key: 'token' }, secret)),
    ).toEqual([]);
    expect(
      details(() => checkVariable({ sensitive: false, hcl: true, category: 'terraform' }, secret)),
    ).toEqual([
      "Sensitive can't be changed from true to false on saved records. Delete the variable and create a new one instead",
      'Category of a sensitive variable cannot be changed: delete the variable and create a new one',
      'Hcl of a sensitive variable cannot be changed: delete the variable and create a new one',
    ]);
  });

  it('fixes the category when asked (set variables)', () => {
    expect(
      details(() => checkVariable({ category: 'terraform' }, stored(), { categoryFixed: true })),
    ).toEqual(['Category cannot be changed']);
    expect(details(() => checkVariable({ category: 'env' }, stored(), { categoryFixed: true }))).toEqual([]);
  });
});

describe('checkRunVariables', () => {
  it('takes nothing as no variables', () => {
    expect(checkRunVariables(undefined)).toEqual([]);
  });

  it('accepts HCL literal expressions as strings and identifiers with dashes', () => {
    const given = [
      { key: 'a-b_c', value: '"x"' },
      { key: '_x', value: '[1, 2]' },
    ];
    expect(checkRunVariables(given)).toEqual(given);
  });

  it('never repeats a value in its messages', () => {
    const messages = details(() => checkRunVariables([{ key: 'bad key', value: 'secret-value' }]));
    expect(messages).toEqual(['Key is not a valid variable name']);
    expect(messages.join()).not.toContain('secret-value');
  });
});
