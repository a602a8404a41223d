import { DomainError } from '../errors/domain-error';
import { bodyShapeProblem, MAX_JSON_DEPTH } from './body-shape';

const problem = (value: unknown) => {
  const err = bodyShapeProblem(value);
  return err && { kind: err.kind, items: err.items };
};

describe('bodyShapeProblem', () => {
  it('accepts documents with well-formed text, astral characters included', () => {
    expect(problem({ data: { attributes: { name: '𝕏 👩‍👩‍👧', tags: ['a', { b: 'ü' }] } } })).toBeUndefined();
  });

  it('points at an attribute holding a lone surrogate and names it', () => {
    expect(problem({ data: { attributes: { email: 'a\ud800@x' } } })).toEqual({
      kind: 'invalid',
      items: [{ detail: 'Email must be well-formed Unicode text', pointer: '/data/attributes/email' }],
    });
  });

  it('names nested attributes as the validators do and skips array indexes', () => {
    const err = problem({ data: { attributes: { 'vcs-repo': { branch: ['x', '\udc00'] } } } });
    expect(err?.items).toEqual([
      {
        detail: 'Vcs repo branch must be well-formed Unicode text',
        pointer: '/data/attributes/vcs-repo/branch/1',
      },
    ]);
  });

  it('points at the object whose key is ill-formed, without echoing the key', () => {
    expect(problem({ data: { relationships: { ['\ud800']: 1 } } })?.items).toEqual([
      { detail: 'Relationships must be well-formed Unicode text', pointer: '/data/relationships' },
    ]);
  });

  it('escapes / and ~ in pointers (RFC 6901) and handles bodies that are bare strings', () => {
    expect(problem({ 'a/b~c': '\ud800' })?.items[0].pointer).toBe('/a~1b~0c');
    expect(problem('\ud800')?.items).toEqual([{ detail: 'Request body must be well-formed Unicode text' }]);
  });

  it('refuses reserved keys and deep nesting as bad requests', () => {
    expect(bodyShapeProblem(JSON.parse('{"__proto__":{}}'))).toBeInstanceOf(DomainError);
    expect(problem(JSON.parse('{"__proto__":{}}'))?.kind).toBe('bad-request');
    let deep: unknown = 1;
    for (let i = 0; i < MAX_JSON_DEPTH + 1; i++) deep = [deep];
    expect(problem(deep)).toEqual({
      kind: 'bad-request',
      items: [{ detail: 'request body is nested too deeply' }],
    });
  });
});
