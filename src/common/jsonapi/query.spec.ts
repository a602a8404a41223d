import { DomainError } from '../errors/domain-error';
import { parseInclude, parsePage } from './query';

describe('query parsing', () => {
  it('defaults to the first page of 20', () => {
    expect(parsePage({})).toEqual({ number: 1, size: 20 });
  });

  it.each(['0', '101', '-1', 'abc', '1.5'])(
    'refuses page[size]=%s with a 422 naming the parameter',
    (size) => {
      try {
        parsePage({ 'page[size]': size });
        throw new Error('expected a refusal');
      } catch (e) {
        expect(e).toBeInstanceOf(DomainError);
        expect((e as DomainError).kind).toBe('invalid');
        expect((e as DomainError).items[0]).toEqual({
          detail: 'page[size] must be between 1 and 100',
          parameter: 'page[size]',
        });
      }
    },
  );

  it('accepts size 100', () => {
    expect(parsePage({ 'page[size]': '100', 'page[number]': '3' })).toEqual({ number: 3, size: 100 });
  });

  it('refuses an unknown include with a 400 that names the include parameter', () => {
    expect(() => parseInclude({ include: 'projects,bogus' }, ['projects'])).toThrow(/include parameter/);
  });

  it('de-duplicates include values', () => {
    expect(parseInclude({ include: 'a,a,b' }, ['a', 'b'])).toEqual(['a', 'b']);
  });

  it('takes a relationship name and its snake_case spelling alike, answering the allowed name', () => {
    const allowed = ['newest-version', 'policy-set'];
    expect(parseInclude({ include: 'newest_version,policy_set' }, allowed)).toEqual([
      'newest-version',
      'policy-set',
    ]);
    expect(parseInclude({ include: 'newest-version,newest_version' }, allowed)).toEqual(['newest-version']);
  });

  it('answers the first listed spelling when a route lists both, and names each relation once', () => {
    const allowed = ['created-by', 'created_by'];
    expect(parseInclude({ include: 'created_by' }, allowed)).toEqual(['created-by']);
    expect(() => parseInclude({ include: 'creator' }, allowed)).toThrow(
      expect.objectContaining({
        items: [
          {
            detail: 'include parameter contains unknown value creator; allowed: created-by',
            parameter: 'include',
          },
        ],
      }),
    );
  });
});

describe('include errors', () => {
  it('shortens long unknown values instead of echoing them whole', () => {
    const long = 'x'.repeat(500);
    expect(() => parseInclude({ include: `${long},a,b,c,d` }, ['projects'])).toThrow(
      expect.objectContaining({
        items: [
          {
            detail: `include parameter contains unknown value ${'x'.repeat(40)}…, a, b and 2 more; allowed: projects`,
            parameter: 'include',
          },
        ],
      }) as Error,
    );
  });
});
