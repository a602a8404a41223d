import Ajv, { ValidateFunction } from 'ajv';
import addFormats from 'ajv-formats';
import type { Response } from 'supertest';
import { knownFields } from '../../src/common/jsonapi/fields';

/** The parts of an OpenAPI 3.0 document these checks read. */
export interface OpenApiDoc {
  paths: Record<string, Record<string, Operation>>;
  servers?: { url: string }[];
  [k: string]: unknown;
}

export interface Operation {
  summary?: string;
  description?: string;
  security?: unknown[];
  parameters?: { name: string; in: string; schema?: Record<string, unknown> }[];
  requestBody?: { content?: Record<string, { schema?: Record<string, unknown> }> };
  responses: Record<string, { content?: Record<string, { schema?: object; example?: unknown }> }>;
}

/** One answer the server gave, as a test saw it. */
export interface Recorded {
  method: string;
  path: string;
  status: number;
  contentType: string | undefined;
  body: unknown;
  /** The request asked for sparse fieldsets (`fields[TYPE]`), so required attributes may be absent. */
  sparse?: boolean;
}

/** Whether a request URL asks for sparse fieldsets. */
export const asksSparse = (url: string): boolean => /[?&]fields(\[|%5B)/i.test(url);

export function recordOf(method: string, path: string, res: Response): Recorded {
  return {
    method: method.toLowerCase(),
    path: path.split('?')[0],
    status: res.status,
    contentType: res.headers['content-type'],
    body: res.body as unknown,
    sparse: asksSparse(path),
  };
}

interface Route {
  template: string;
  method: string;
  pattern: RegExp;
  params: number;
  operation: Operation;
}

function routesOf(doc: OpenApiDoc): Route[] {
  const routes: Route[] = [];
  for (const [template, item] of Object.entries(doc.paths)) {
    for (const [method, operation] of Object.entries(item)) {
      const source = template.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\\?\{[^}]+\\?\}/g, '[^/]+');
      routes.push({
        template,
        method,
        pattern: new RegExp(`^${source.replace(/\{[^}]+\}/g, '[^/]+')}$`),
        params: (template.match(/\{/g) ?? []).length,
        operation,
      });
    }
  }
  // A literal segment is more specific than a parameter (`/organizations/{org}/teams` before `/{id}`).
  return routes.sort((a, b) => a.params - b.params);
}

/**
 * Checks recorded answers against the document: the operation exists, the status is documented,
 * the body is declared under the Content-Type it was sent with and matches that schema, and every
 * resource in `data`/`included` uses only field names its type declares (what `fields[TYPE]`
 * accepts). Answers the problems found, one line each.
 */
export class ResponseValidator {
  private readonly ajv = new Ajv({ strict: false, allErrors: true });
  private readonly routes: Route[];
  private readonly compiled = new Map<object, ValidateFunction>();
  private readonly compiledSparse = new Map<object, ValidateFunction>();

  constructor(private readonly doc: OpenApiDoc) {
    addFormats(this.ajv);
    this.ajv.addKeyword({ keyword: 'example' });
    this.routes = routesOf(doc);
  }

  /**
   * The schema with `#/components/schemas/…` references replaced by what they name; for a sparse
   * answer, without the `required` list of resources' `attributes` (the caller chose which).
   */
  private deref(node: unknown, sparse = false): unknown {
    if (Array.isArray(node)) return node.map((n) => this.deref(n, sparse));
    if (!node || typeof node !== 'object') return node;
    const ref = (node as { $ref?: unknown }).$ref;
    if (typeof ref === 'string') {
      const name = ref.replace('#/components/schemas/', '');
      const components = (this.doc.components as { schemas?: Record<string, unknown> } | undefined)?.schemas;
      if (!components?.[name]) throw new Error(`unresolved reference ${ref}`);
      return this.deref(components[name], sparse);
    }
    return Object.fromEntries(
      Object.entries(node).map(([k, v]) => {
        if (sparse && k === 'attributes' && v && typeof v === 'object' && 'required' in v) {
          const rest = { ...(v as Record<string, unknown>) };
          delete rest.required;
          return [k, this.deref(rest, sparse)];
        }
        return [k, this.deref(v, sparse)];
      }),
    );
  }

  private schemaFn(schema: object, sparse = false): ValidateFunction {
    const cache = sparse ? this.compiledSparse : this.compiled;
    let fn = cache.get(schema);
    if (!fn) {
      fn = this.ajv.compile(this.deref(schema, sparse) as object);
      cache.set(schema, fn);
    }
    return fn;
  }

  problems(record: Recorded): string[] {
    const where = `${record.method.toUpperCase()} ${record.path} ${record.status}`;
    const route = this.routes.find((r) => r.method === record.method && r.pattern.test(record.path));
    if (!route) return [`${where}: no operation in the document`];
    const response = route.operation.responses[String(record.status)];
    if (!response) return [`${where}: status not documented for ${route.template}`];
    if (record.status === 204 || !response.content) return [];
    const mediaType = record.contentType?.split(';')[0].trim() ?? '';
    const content = response.content[mediaType];
    if (!content) {
      return [`${where}: ${mediaType} not declared (declared: ${Object.keys(response.content).join(', ')})`];
    }
    const out: string[] = [];
    if (content.schema) {
      const validate = this.schemaFn(content.schema, record.sparse);
      if (!validate(record.body)) {
        for (const e of (validate.errors ?? []).slice(0, 5)) {
          out.push(`${where}: ${e.instancePath || '/'} ${e.message ?? ''} (${JSON.stringify(e.params)})`);
        }
      }
    }
    return [...out, ...fieldProblems(where, record.body)];
  }
}

type Resource = { type?: unknown; attributes?: object; relationships?: object };

function fieldProblems(where: string, body: unknown): string[] {
  const doc = body as { data?: unknown; included?: unknown } | null;
  if (!doc || typeof doc !== 'object') return [];
  const resources = [
    ...(Array.isArray(doc.data) ? doc.data : doc.data ? [doc.data] : []),
    ...(Array.isArray(doc.included) ? doc.included : []),
  ] as Resource[];
  const out: string[] = [];
  for (const r of resources) {
    if (typeof r?.type !== 'string' || !r.attributes) continue;
    const known = knownFields(r.type);
    if (!known) {
      out.push(`${where}: type ${r.type} is not known to fields[]`);
      continue;
    }
    for (const name of [...Object.keys(r.attributes), ...Object.keys(r.relationships ?? {})]) {
      if (!known.has(name)) out.push(`${where}: ${r.type}.${name} is not a declared field`);
    }
  }
  return out;
}
