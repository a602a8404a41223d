import { DomainError } from '../common/errors/domain-error';
import { forbiddenOverrides, mergeTagBindings, readTagBindings, TagBindingInput } from './tag-binding-rules';

const item = (attributes: Record<string, unknown>) => ({ type: 'tag-bindings', attributes });

function problems(data: unknown): { detail?: string; pointer?: string }[] {
  try {
    readTagBindings(data, '/data');
  } catch (err) {
    if (err instanceof DomainError && err.kind === 'invalid') return err.items;
    throw err;
  }
  throw new Error('expected the list to be refused');
}

describe('readTagBindings', () => {
  it('reads keys and values, an absent or null value as empty', () => {
    expect(
      readTagBindings(
        [item({ key: 'env', value: 'prod' }), item({ key: 'solo' }), item({ key: 'n', value: null })],
        '/x',
      ),
    ).toEqual([
      { key: 'env', value: 'prod' },
      { key: 'solo', value: '' },
      { key: 'n', value: '' },
    ]);
  });

  it('accepts letters, digits and _ . = + - @ : up to 128 characters', () => {
    const key = 'aZ09_.=+-@:'.padEnd(128, 'q');
    expect(readTagBindings([item({ key, value: 'v'.repeat(256) })], '/x')).toEqual([
      { key, value: 'v'.repeat(256) },
    ]);
  });

  it.each([
    ['a space', 'a b', 'Key is invalid'],
    ['a slash', 'a/b', 'Key is invalid'],
    ['129 characters', 'k'.repeat(129), 'Key is invalid'],
    ['a number', 5, 'Key is invalid'],
    ['nothing', undefined, "Key can't be blank"],
    ['an empty string', '', "Key can't be blank"],
    ['the hc: prefix', 'hc:x', 'Key cannot begin with hc: or hcp:'],
    ['the hcp: prefix in capitals', 'HCP:x', 'Key cannot begin with hc: or hcp:'],
  ])('refuses a key with %s', (_, key, detail) => {
    expect(problems([item({ key, value: 'v' })])).toEqual([{ detail, pointer: '/data/0/attributes/key' }]);
  });

  it('allows prefixes that only look like the platform ones', () => {
    expect(
      readTagBindings([item({ key: 'hcx:a' }), item({ key: 'hc' }), item({ key: 'ahc:b' })], '/x'),
    ).toHaveLength(3);
  });

  it('refuses long and non-string values', () => {
    expect(problems([item({ key: 'a', value: 'v'.repeat(257) }), item({ key: 'b', value: true })])).toEqual([
      { detail: 'Value is too long (maximum is 256 characters)', pointer: '/data/0/attributes/value' },
      { detail: 'Value must be a string', pointer: '/data/1/attributes/value' },
    ]);
  });

  it('reports every bad item at once, and a key repeated in another case', () => {
    expect(
      problems([
        item({ key: 'env' }),
        { type: 'tags', attributes: { key: 'a' } },
        item({ key: 'ENV' }),
        'x',
        { type: 'tag-bindings' },
      ]),
    ).toEqual([
      { detail: 'Type must be tag-bindings', pointer: '/data/1/type' },
      { detail: 'Key ENV is given more than once', pointer: '/data/2/attributes/key' },
      { detail: 'Tag binding must be a resource object', pointer: '/data/3' },
      { detail: 'Attributes must be an object', pointer: '/data/4/attributes' },
    ]);
  });

  it('refuses anything but an array', () => {
    expect(problems({ key: 'a' })).toEqual([{ detail: 'Tag bindings must be an array', pointer: '/data' }]);
  });
});

describe('mergeTagBindings', () => {
  it('updates existing keys in place (ignoring case), appends new ones and removes nothing', () => {
    const existing = [
      { key: 'env', value: 'dev' },
      { key: 'team', value: 'a' },
    ];
    expect(
      mergeTagBindings(existing, [
        { key: 'ENV', value: 'prod' },
        { key: 'region', value: 'eu' },
      ]),
    ).toEqual([
      { key: 'ENV', value: 'prod' },
      { key: 'team', value: 'a' },
      { key: 'region', value: 'eu' },
    ]);
  });
});

describe('forbiddenOverrides', () => {
  const inherited: TagBindingInput[] = [
    { key: 'env', value: 'prod' },
    { key: 'team', value: 'core' },
  ];
  const locked = new Set(['env']);

  it('finds a new binding of an inherited key that is locked, whatever its case', () => {
    const resulting = [
      { key: 'Env', value: 'dev' },
      { key: 'team', value: 'x' },
      { key: 'app', value: 'web' },
    ];
    expect(forbiddenOverrides({ resulting, previous: [], inherited, locked })).toEqual([
      { key: 'Env', value: 'dev' },
    ]);
  });

  it('ignores locked keys the project does not bind', () => {
    expect(
      forbiddenOverrides({ resulting: [{ key: 'env', value: 'dev' }], previous: [], inherited: [], locked }),
    ).toEqual([]);
  });

  it('leaves an existing override alone while it stays unchanged in the same project', () => {
    const previous = [{ key: 'env', value: 'dev' }];
    expect(forbiddenOverrides({ resulting: previous, previous, inherited, locked })).toEqual([]);
    expect(
      forbiddenOverrides({ resulting: [{ key: 'env', value: 'qa' }], previous, inherited, locked }),
    ).toEqual([{ key: 'env', value: 'qa' }]);
  });

  it('treats every binding as new when the workspace is new or moves (no previous bindings)', () => {
    const resulting = [{ key: 'env', value: 'dev' }];
    expect(forbiddenOverrides({ resulting, previous: null, inherited, locked })).toEqual(resulting);
  });
});
