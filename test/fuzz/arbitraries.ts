import fc from 'fast-check';
import { FuzzBody, FuzzFixtures, FuzzRoute } from './routes';

/** One request the fuzzer sends. */
export interface FuzzCase {
  method: string;
  path: string;
  headers: Record<string, string>;
  body?: string | Buffer;
}

const clip = (s: string, n: number) => (s.length > n ? `${s.slice(0, n)}…(${s.length} chars)` : s);

/** Counterexamples can be megabytes: print them clipped. */
function describeCase(c: FuzzCase): string {
  const body = c.body === undefined ? '' : ` body=${JSON.stringify(clip(c.body.toString(), 300))}`;
  return `${c.method} ${clip(c.path, 300)} headers=${JSON.stringify(c.headers)}${body}`;
}

/** Percent-encodes the UTF-8 bytes of any string (lone surrogates become U+FFFD, as on the wire). */
export function encode(s: string): string {
  let out = '';
  for (const byte of Buffer.from(s, 'utf8')) {
    const c = String.fromCharCode(byte);
    out += /[A-Za-z0-9\-_.~]/.test(c) ? c : `%${byte.toString(16).toUpperCase().padStart(2, '0')}`;
  }
  return out;
}

const TRICKY_STRINGS = [
  '',
  ' ',
  '0',
  '-1',
  '1e309',
  'NaN',
  'null',
  'true',
  '[]',
  '{}',
  '../..',
  '%',
  '\u0000',
  '\u202e',
  '\ufeff',
  '\ud800',
  '\uffff',
  'İı',
  '𝕏𝕐',
  '👩‍👩‍👧‍👦',
  '<script>alert(1)</script>',
  "' OR 1=1 --",
  '${jndi:x}',
  '__proto__',
  'constructor',
  'a'.repeat(256),
  'b'.repeat(4097),
];

/** Strings a client should never send and a server must survive. */
export const hostileString: fc.Arbitrary<string> = fc.oneof(
  fc.string({ maxLength: 40 }),
  fc.string({ unit: 'grapheme', maxLength: 40 }),
  fc.string({ unit: 'binary', maxLength: 40 }),
  fc.constantFrom(...TRICKY_STRINGS),
  fc.integer({ min: 300, max: 70_000 }).map((n) => 'x'.repeat(n)),
);

const scalar: fc.Arbitrary<unknown> = fc.oneof(
  hostileString,
  fc.integer(),
  fc.double(),
  fc.boolean(),
  fc.constant(null),
  fc.constantFrom(Number.MAX_SAFE_INTEGER + 2, -0, 1e308),
);

/** Any JSON value at an attribute: wrong types, arrays where objects belong, nesting. */
export const hostileValue: fc.Arbitrary<unknown> = fc.oneof(
  { weight: 4, arbitrary: scalar },
  { weight: 1, arbitrary: fc.array(scalar, { maxLength: 5 }) },
  { weight: 1, arbitrary: fc.dictionary(hostileString, scalar, { maxKeys: 4 }) },
  { weight: 1, arbitrary: fc.jsonValue({ maxDepth: 4 }) },
);

const identifier = (type: string) =>
  fc.oneof(
    fc.record({
      type: fc.oneof(fc.constant(type), hostileString),
      id: fc.oneof(hostileString, hostileValue),
    }),
    hostileValue,
  );

const relationship = (type: string) =>
  fc.oneof(
    fc.record({ data: identifier(type) }),
    fc.record({ data: fc.array(identifier(type), { maxLength: 3 }) }),
    fc.constant({ data: null }),
    hostileValue,
  );

/** What every string and boolean attribute must survive: text that is not well-formed UTF-16, and null. */
const POISON = ['\ud800', '\udfff', 'a\ud800b', '\udc00\ud800', null] as const;

/** Attributes of a valid request (when the route has a sample) with one attribute, or one nested member, poisoned. */
function poisoned(
  targets: readonly (readonly [string, string?])[],
  sample: () => Record<string, unknown>,
): fc.Arbitrary<Record<string, unknown>> {
  return fc.tuple(fc.constantFrom(...targets), fc.constantFrom(...POISON)).map(([[name, member], value]) => ({
    ...sample(),
    [name]: member === undefined ? value : { [member]: value },
  }));
}

/** A JSON:API document whose shape is plausible and whose contents are not. */
function resourceDocument(
  body: Extract<FuzzBody, { kind: 'resource' }>,
  sample: () => Record<string, unknown>,
): fc.Arbitrary<unknown> {
  const targets = [
    ...body.attributes.map((name) => [name] as const),
    ...Object.entries(body.nested ?? {}).flatMap(([name, members]) => members.map((m) => [name, m] as const)),
  ];
  const names = body.attributes.length
    ? fc.oneof(fc.constantFrom(...body.attributes), hostileString)
    : hostileString;
  const attributes = fc.oneof(
    { weight: 5, arbitrary: fc.dictionary(names, hostileValue, { maxKeys: 5 }) },
    ...(targets.length ? [{ weight: 3, arbitrary: poisoned(targets, sample) }] : []),
    { weight: 1, arbitrary: hostileValue },
  );
  const relNames = body.relationships?.length ? fc.constantFrom(...body.relationships) : hostileString;
  const relationships = fc.oneof(
    { weight: 3, arbitrary: fc.dictionary(relNames, relationship(body.type), { maxKeys: 3 }) },
    { weight: 1, arbitrary: hostileValue },
  );
  return fc.record(
    {
      data: fc.oneof(
        {
          weight: 6,
          arbitrary: fc.record(
            {
              type: fc.oneof(
                { weight: 4, arbitrary: fc.constant(body.type) },
                { weight: 1, arbitrary: hostileValue },
              ),
              id: hostileValue,
              attributes,
              relationships,
            },
            { requiredKeys: ['type'] },
          ),
        },
        { weight: 1, arbitrary: hostileValue },
      ),
      meta: hostileValue,
    },
    { requiredKeys: ['data'] },
  );
}

function structuredBody(body: FuzzBody, sample: () => Record<string, unknown>): fc.Arbitrary<unknown> {
  switch (body.kind) {
    case 'resource':
      return resourceDocument(body, sample);
    case 'identifiers':
      return fc.oneof(
        fc.record({ data: fc.array(identifier(body.type), { maxLength: 5 }) }),
        fc.record({ data: identifier(body.type) }),
        hostileValue,
      );
    case 'object':
      return fc.oneof(
        {
          weight: 4,
          arbitrary: fc.dictionary(fc.constantFrom(...body.fields), hostileValue, { maxKeys: 4 }),
        },
        {
          weight: 2,
          arbitrary: poisoned(
            body.fields.map((name) => [name] as const),
            () => ({}),
          ),
        },
        { weight: 1, arbitrary: hostileValue },
      );
    case 'raw':
      return fc.constant(null);
  }
}

const deeply = (open: string, close: string, inner = '') =>
  fc
    .oneof(fc.integer({ min: 50, max: 20_000 }), fc.integer({ min: 100_000, max: 450_000 }))
    .map((n) => open.repeat(n) + inner + close.repeat(n));

/** Texts that are not what they claim: truncated, duplicated keys, nesting, noise, oversize. */
function rawJsonBody(body: FuzzBody, sample: () => Record<string, unknown>): fc.Arbitrary<string> {
  const type = body.kind === 'resource' || body.kind === 'identifiers' ? body.type : 'x';
  const document = structuredBody(body, sample).map((v) => JSON.stringify(v) ?? 'null');
  return fc.oneof(
    { weight: 12, arbitrary: document },
    {
      weight: 2,
      arbitrary: fc
        .tuple(document, fc.nat())
        .map(([text, cut]) => text.slice(0, text.length > 1 ? cut % (text.length - 1) : 0)),
    },
    {
      weight: 1,
      arbitrary: fc.constantFrom(
        `{"data":{"type":"${type}","attributes":{"name":"a","name":{"x":1}}},"data":[]}`,
        `{"data":{"type":"${type}","type":7,"attributes":{}}}`,
        `{"__proto__":{"polluted":1},"data":{"type":"${type}","attributes":{"__proto__":{"isSiteAdmin":true},"constructor":{"prototype":{"x":1}}}}}`,
        'null',
        '[]',
        '"data"',
        '1',
        '{}',
        '{"data":null}',
        '{"data":[]}',
        '{"data":"x"}',
        `{"data":{"type":"${type}","attributes":[]}}`,
        `{"data":{"type":"${type}","relationships":[]}}`,
        '\ufeff{"data":{}}',
        '{"data":{"type":"x"}}garbage',
      ),
    },
    { weight: 1, arbitrary: deeply('[', ']') },
    { weight: 1, arbitrary: deeply('{"a":', '}', '1') },
    {
      weight: 1,
      arbitrary: deeply('[', ']').map((nest) => `{"data":{"type":"${type}","attributes":{"name":${nest}}}}`),
    },
    { weight: 1, arbitrary: fc.string({ unit: 'binary', maxLength: 200 }) },
    {
      weight: 1,
      arbitrary: fc
        .integer({ min: 1_000_000, max: 1_100_000 })
        .map((n) => `{"data":{"type":"${type}","attributes":{"name":"${'y'.repeat(n)}"}}}`),
    },
  );
}

const CONTENT_TYPES = [
  'application/json',
  'application/json; charset=utf-8',
  'application/json; charset=latin1',
  'application/json; charset=utf-16',
  'application/vnd.api+json; ext="bogus"',
  'application/merge-patch+json',
  'text/plain',
  'application/xml',
  'application/x-www-form-urlencoded',
  'multipart/form-data; boundary=xyz',
  '*/*',
  'invalid content type',
];

const contentType = fc.oneof(
  { weight: 8, arbitrary: fc.constant('application/vnd.api+json') },
  { weight: 4, arbitrary: fc.constantFrom(...CONTENT_TYPES) },
  { weight: 1, arbitrary: fc.constant('') },
);

const contentEncoding = fc.oneof(
  { weight: 12, arbitrary: fc.constant('') },
  { weight: 1, arbitrary: fc.constantFrom('gzip', 'deflate', 'br', 'identity', 'bogus') },
);

/** Path segments that are hostile and still legal on the wire (already percent-encoded or bare). */
const RAW_SEGMENTS = [
  '%',
  '%E0%A4%A',
  '%ZZ',
  '%00',
  '%C0%AF',
  '..',
  '.',
  '%2e%2e',
  '%2F',
  '~',
  '*',
  "'",
  ':x',
  '@',
  '!',
  ';a=b',
];

function pathParam(real: string | undefined): fc.Arbitrary<string> {
  const hostile = fc.oneof(
    {
      weight: 3,
      arbitrary: hostileString.map((s) =>
        encode(s.slice(0, 2000))
          .slice(0, 6000)
          .replace(/%[0-9A-F]?$/, ''),
      ),
    },
    { weight: 1, arbitrary: fc.constantFrom(...RAW_SEGMENTS) },
  );
  if (real === undefined) return hostile;
  return fc.oneof({ weight: 3, arbitrary: fc.constant(encode(real)) }, { weight: 2, arbitrary: hostile });
}

const QUERY_KEYS = [
  'page[number]',
  'page[size]',
  'page',
  'page[size][x]',
  'include',
  'filter[x]',
  'sort',
  '__proto__',
];

function queryString(known: readonly string[]): fc.Arbitrary<string> {
  const key = fc.oneof(
    { weight: 4, arbitrary: fc.constantFrom(...(known.length ? known : QUERY_KEYS)) },
    { weight: 1, arbitrary: fc.constantFrom(...QUERY_KEYS) },
    { weight: 1, arbitrary: hostileString.map((s) => s.slice(0, 100)) },
  );
  const value = fc.oneof(
    fc.integer({ min: -5, max: 150 }).map(String),
    fc.constantFrom('', '0', '1', '100', '101', '1e3', '2.5', '9999999999999999999999', 'abc', ',', 'a,,b'),
    hostileString.map((s) => s.slice(0, 2000)),
  );
  const pair = fc
    .tuple(key, value, fc.boolean())
    .map(
      ([k, v, rawBrackets]) => `${rawBrackets ? k.replace(/[^[\]\w]+/g, encode) : encode(k)}=${encode(v)}`,
    );
  return fc.array(pair, { maxLength: 5 }).map((pairs) => (pairs.length ? `?${pairs.join('&')}` : ''));
}

const authorization = (token: string) =>
  fc.oneof(
    { weight: 12, arbitrary: fc.constant(`Bearer ${token}`) },
    {
      weight: 1,
      arbitrary: fc.constantFrom('', 'Bearer', 'Bearer ', 'Basic YTpi', `Bearer ${token}x`, 'bearer x y'),
    },
  );

/** Every request the fuzzer may send to `route`, with real fixture values mixed with hostile ones. */
export function fuzzCase(
  route: FuzzRoute,
  fixtures: FuzzFixtures,
  adminToken: string,
): fc.Arbitrary<FuzzCase> {
  const real = route.destructive ? {} : (route.params?.(fixtures) ?? {});
  const names = [...route.path.matchAll(/:(\w+)/g)].map((m) => m[1]);
  const params = fc.tuple(...names.map((n) => pathParam(real[n])));
  const path = params.map((values) => names.reduce((p, n, i) => p.replace(`:${n}`, values[i]), route.path));
  const auth = route.auth === 'none' ? fc.constant('') : authorization(adminToken);
  const body: fc.Arbitrary<string | Buffer | undefined> =
    route.body === undefined
      ? fc.constant(undefined)
      : route.body.kind === 'raw'
        ? fc.oneof(
            fc.uint8Array({ maxLength: 64 * 1024 }).map((b) => Buffer.from(b)),
            fc.constant(undefined),
          )
        : fc.oneof(
            { weight: 12, arbitrary: rawJsonBody(route.body, () => route.sample?.(fixtures) ?? {}) },
            { weight: 1, arbitrary: fc.constant(undefined) },
          );
  return fc
    .record({ path, query: queryString(route.query ?? []), auth, body, contentType, contentEncoding })
    .map(({ path: p, query, auth: a, body: b, contentType: ct, contentEncoding: ce }) => {
      const headers: Record<string, string> = {};
      if (a) headers.Authorization = a;
      if (b !== undefined && ct) headers['Content-Type'] = ct;
      if (b !== undefined && ce) headers['Content-Encoding'] = ce;
      const c: FuzzCase = {
        method: route.method,
        path: `${p}${query}`,
        headers,
        body: route.method === 'HEAD' ? undefined : b,
      };
      return Object.assign(c, { [fc.toStringMethod]: () => describeCase(c) });
    });
}
