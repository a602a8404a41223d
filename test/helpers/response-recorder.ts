import type { NestExpressApplication } from '@nestjs/platform-express';
import type { NextFunction, Request, Response } from 'express';
import { createHash } from 'node:crypto';
import { mkdirSync, readdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { AppConfig } from '../../src/config/app-config';
import { buildOpenApiDocument } from '../../src/http/openapi-document';
import { asksSparse, OpenApiDoc, Recorded, ResponseValidator } from './openapi-check';
import { ROOT } from './server-process';

const DOCUMENTS = join(ROOT, 'node_modules', '.cache', 'plinth-e2e-openapi');

/** The sources do not change while a suite runs: hashed once per suite, however many apps it closes. */
let sources: string | undefined;

/** The sources and packages a document is built from, as one hash (each .ts file under src/, in order). */
function sourcesHash(): string {
  return (sources ??= hashSources());
}

function hashSources(): string {
  const hash = createHash('sha256').update(readFileSync(join(ROOT, 'package-lock.json')));
  const walk = (dir: string): void => {
    for (const entry of readdirSync(dir, { withFileTypes: true }).sort((a, b) =>
      a.name < b.name ? -1 : 1,
    )) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) walk(path);
      else if (entry.name.endsWith('.ts') && !entry.name.endsWith('.spec.ts')) {
        hash.update(path.slice(ROOT.length)).update('\0').update(readFileSync(path)).update('\0');
      }
    }
  };
  walk(join(ROOT, 'src'));
  return hash.digest('hex');
}

/** What the app's OpenAPI document depends on: the sources, the packages and two settings. */
function documentKey(app: NestExpressApplication): string {
  const config = app.get(AppConfig);
  return createHash('sha256')
    .update(sourcesHash())
    .update(JSON.stringify([config.baseUrl ?? null, config.deployment]))
    .digest('hex');
}

/**
 * The app's OpenAPI document. Building it (Swagger's scan of every controller) costs ~0.4 s of
 * CPU, once per suite; it is kept on disk under its key and built again when the key changes.
 */
function documentOf(app: NestExpressApplication, key: string): OpenApiDoc {
  const file = join(DOCUMENTS, `${key}.json`);
  try {
    return JSON.parse(readFileSync(file, 'utf8')) as OpenApiDoc;
  } catch {
    // not built yet for these sources
  }
  const doc = buildOpenApiDocument(app) as unknown as OpenApiDoc;
  mkdirSync(DOCUMENTS, { recursive: true });
  // Written whole, then renamed: a suite in another worker never reads half a document.
  writeFileSync(`${file}.${process.pid}`, JSON.stringify(doc));
  renameSync(`${file}.${process.pid}`, file);
  return doc;
}

/** Answers of one kind are checked once per suite: the shape, not each instance, is the point. */
const MAX_PER_KIND = 3;

/** One validator per distinct document in this suite (ajv compiles each schema once), by its key. */
const validators = new Map<string, ResponseValidator>();

function validatorFor(app: NestExpressApplication): ResponseValidator {
  const key = documentKey(app);
  let validator = validators.get(key);
  if (!validator) {
    validator = new ResponseValidator(documentOf(app, key));
    validators.set(key, validator);
  }
  return validator;
}

/**
 * Every JSON answer an e2e suite's server gives, checked against the OpenAPI document of that
 * server when the suite closes it (`startApp`'s `close`): the operation exists, the status is
 * documented, the body matches its schema, every resource uses only declared fields. So each suite
 * is also a test of the document, for every response shape it provokes. `VALIDATE_RESPONSES=0`
 * turns it off. Left out: client errors on paths the document does not list (tests of unknown
 * paths), 500s (provoked faults), answers to HEAD, and the document and explorer themselves.
 */
export class ResponseRecorder {
  private readonly recorded: Recorded[] = [];
  private readonly seen = new Map<string, number>();

  middleware() {
    return (req: Request, res: Response, next: NextFunction) => {
      if (req.path.startsWith('/docs')) return next();
      const chunks: Buffer[] = [];
      const write = res.write.bind(res) as (...args: unknown[]) => boolean;
      const end = res.end.bind(res) as (...args: unknown[]) => Response;
      const keep = (chunk: unknown) => {
        if (typeof chunk === 'string') chunks.push(Buffer.from(chunk));
        else if (Buffer.isBuffer(chunk)) chunks.push(chunk);
        else if (chunk instanceof Uint8Array) chunks.push(Buffer.from(chunk));
      };
      res.write = ((chunk: unknown, ...rest: unknown[]) => {
        keep(chunk);
        return write(chunk, ...rest);
      }) as Response['write'];
      res.end = ((chunk?: unknown, ...rest: unknown[]) => {
        if (chunk !== undefined && typeof chunk !== 'function') keep(chunk);
        return end(chunk, ...rest);
      }) as Response['end'];
      res.once('finish', () => this.note(req, res, chunks));
      next();
    };
  }

  private note(req: Request, res: Response, chunks: Buffer[]): void {
    const contentType = res.getHeader('content-type');
    const type = typeof contentType === 'string' ? contentType : undefined;
    // A HEAD has no body; a 500 is a fault some suites provoke on purpose, never a documented answer.
    if (!type || !/json/.test(type) || req.method === 'HEAD' || res.statusCode === 500) return;
    // Express matches a path with a trailing slash as the one without.
    const path = req.originalUrl.split('?')[0].replace(/(.)\/+$/, '$1');
    const kind = `${req.method} ${req.route ? String((req.route as { path: string }).path) : path} ${res.statusCode}`;
    const count = this.seen.get(kind) ?? 0;
    if (count >= MAX_PER_KIND) return;
    this.seen.set(kind, count + 1);
    let body: unknown;
    try {
      body = JSON.parse(Buffer.concat(chunks).toString('utf8'));
    } catch {
      body = Buffer.concat(chunks).toString('utf8');
    }
    this.recorded.push({
      method: req.method.toLowerCase(),
      path,
      status: res.statusCode,
      contentType: type,
      body,
      sparse: asksSparse(req.originalUrl),
    });
  }

  /** The problems of everything recorded, one line each (at most 20). */
  problems(app: NestExpressApplication): string[] {
    if (!this.recorded.length) return [];
    const validator = validatorFor(app);
    const out: string[] = [];
    for (const record of this.recorded) {
      for (const problem of validator.problems(record)) {
        // A path the document does not list answered 404 (or 429 before routing): a test of it.
        if (record.status >= 400 && record.status < 500 && problem.endsWith('no operation in the document'))
          continue;
        out.push(problem);
      }
    }
    return [...new Set(out)].slice(0, 20);
  }
}
