import { DomainError, humanize } from '../errors/domain-error';

/** JSON:API documents nest a handful of levels; far deeper nesting only exhausts the validators' stack. */
export const MAX_JSON_DEPTH = 64;

/** Keys that name object machinery; no document uses them and the class transformer trips over them. */
const RESERVED_KEYS = new Set(['__proto__', 'constructor', 'prototype']);

const ATTRIBUTES = '/data/attributes/';

/** In a `u` regular expression a surrogate pair is one code point: only a lone surrogate is `Cs`. */
const LONE_SURROGATE = /\p{Cs}/u;

/** RFC 6901: `~` and `/` inside a reference token are escaped. */
const token = (key: string) => key.replace(/~/g, '~0').replace(/\//g, '~1');

/** `/data/attributes/organization-access/manage-policies` → `Organization access manage policies`. */
function nameAt(pointer: string): string {
  if (pointer === '') return 'Request body';
  const path = pointer.startsWith(ATTRIBUTES) ? pointer.slice(ATTRIBUTES.length) : pointer.slice(1);
  const segments = path.split('/').filter((s) => !/^\d+$/.test(s));
  const named = pointer.startsWith(ATTRIBUTES) ? segments : segments.slice(-1);
  return humanize(named.map((s) => s.replace(/~1/g, '/').replace(/~0/g, '~')).join('.'));
}

/**
 * What makes a parsed body unsafe to hand to the validators and the database, if anything:
 * nesting deeper than MAX_JSON_DEPTH or a reserved key (400), or text that is not well-formed
 * UTF-16 (422 pointing at it: a lone surrogate has no UTF-8 form, so no database could store it
 * as sent). Walks without recursion, so any depth the parser accepted is safe to measure.
 */
export function bodyShapeProblem(value: unknown): DomainError | undefined {
  const stack: [unknown, number, string][] = [[value, 0, '']];
  while (stack.length) {
    const [node, depth, pointer] = stack.pop()!;
    if (typeof node === 'string') {
      if (LONE_SURROGATE.test(node)) return illFormed(pointer);
      continue;
    }
    if (typeof node !== 'object' || node === null) continue;
    if (depth >= MAX_JSON_DEPTH) return badRequest('request body is nested too deeply');
    for (const [key, child] of Object.entries(node)) {
      if (!Array.isArray(node) && RESERVED_KEYS.has(key)) {
        return badRequest(`request body must not use the key "${key}"`);
      }
      if (LONE_SURROGATE.test(key)) return illFormed(pointer);
      stack.push([child, depth + 1, `${pointer}/${token(key)}`]);
    }
  }
  return undefined;
}

const badRequest = (detail: string) => new DomainError('bad-request', [{ detail }]);

const illFormed = (pointer: string) =>
  new DomainError('invalid', [
    { detail: `${nameAt(pointer)} must be well-formed Unicode text`, pointer: pointer || undefined },
  ]);
