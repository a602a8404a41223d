import { DomainError } from '../../common/errors/domain-error';
import { validateAttributes } from '../../common/jsonapi/body';
import { ReservedTagKeyAttributes } from './reserved-tag-key-attributes.dto';

function details(plain: Record<string, unknown>): string[] {
  try {
    validateAttributes(ReservedTagKeyAttributes, plain);
    return [];
  } catch (err) {
    if (err instanceof DomainError) return err.items.map((i) => i.detail ?? '');
    throw err;
  }
}

describe('reserved tag key attributes', () => {
  it.each(['env', 'Cost Center', 'a.b=c+d-e@f:g_h', 'k'.repeat(128), '7'])('accept the key %j', (key) => {
    expect(details({ key, 'disable-overrides': false })).toEqual([]);
  });

  it.each(['k'.repeat(129), 'a/b', 'naïve', ' lead', 'trail ', 12, true])(
    'refuse the key %j as invalid',
    (key) => {
      expect(details({ key, 'disable-overrides': true })).toEqual(['Key is invalid']);
    },
  );

  it('read a missing, null or empty key as blank only', () => {
    for (const key of [undefined, null, '']) {
      expect(details({ key, 'disable-overrides': true })).toEqual(["Key can't be blank"]);
    }
  });

  it('require disable-overrides as a real boolean', () => {
    expect(details({ key: 'k' })).toEqual(["Disable overrides can't be blank"]);
    expect(details({ key: 'k', 'disable-overrides': 'false' })).toEqual([
      'Disable overrides must be a boolean',
    ]);
    expect(details({ key: 'k', 'disable-overrides': 0 })).toEqual(['Disable overrides must be a boolean']);
  });
});
