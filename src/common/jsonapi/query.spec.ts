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
