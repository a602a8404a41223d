/**
 * Domain errors say what went wrong in the service's terms; only the exception filter
 * turns a kind into an HTTP status and a JSON:API title.
 */
export type ErrorKind =
  | 'bad-request'
  | 'unauthorized'
  | 'forbidden'
  | 'not-found'
  | 'conflict'
  | 'gone'
  | 'precondition-failed'
  | 'too-large'
  | 'unsupported-media-type'
  | 'not-acceptable'
  | 'invalid'
  | 'rate-limited'
  | 'unavailable';

export interface ErrorItem {
  detail?: string;
  /** JSON pointer into the request document, e.g. `/data/attributes/name`. */
  pointer?: string;
  /** Name of the query parameter at fault, e.g. `include`. */
  parameter?: string;
}

export class DomainError extends Error {
  constructor(
    readonly kind: ErrorKind,
    readonly items: ErrorItem[] = [],
    /** When to try again (a `rate-limited` error's `Retry-After`), in whole seconds. */
    readonly retryAfterSeconds?: number,
  ) {
    super(items.map((i) => i.detail).join('; ') || kind);
    this.name = 'DomainError';
  }
}

/** `disable-overrides` → `Disable overrides`, `key-id` → `Key id`, `vcs-repo.identifier` → `Vcs repo identifier`. */
export function humanize(field: string): string {
  const words = field.replace(/[-_.]/g, ' ').trim();
  return words.charAt(0).toUpperCase() + words.slice(1);
}

export function attributePointer(field: string): string {
  return `/data/attributes/${field.replace(/\./g, '/')}`;
}

export function notFound(detail?: string): DomainError {
  return new DomainError('not-found', detail ? [{ detail }] : []);
}

/** A 429 whose answer says in `Retry-After` when to try again. */
export function tooManyRequests(detail: string, retryAfterSeconds: number): DomainError {
  return new DomainError('rate-limited', [{ detail }], retryAfterSeconds);
}

export function forbidden(detail?: string): DomainError {
  return new DomainError('forbidden', detail ? [{ detail }] : []);
}

export function badRequest(detail: string, parameter?: string): DomainError {
  return new DomainError('bad-request', [{ detail, parameter }]);
}

export function conflict(detail: string): DomainError {
  return new DomainError('conflict', [{ detail }]);
}

/** A 422 about one attribute: `invalidAttribute('name', 'has already been taken')` → "Name has already been taken". */
export function invalidAttribute(field: string, message: string): DomainError {
  return new DomainError('invalid', [
    { detail: `${humanize(field)} ${message}`, pointer: attributePointer(field) },
  ]);
}

/** The 422 of a natural key already in use: `taken('name')` → "Name has already been taken". */
export function taken(field: string): DomainError {
  return invalidAttribute(field, 'has already been taken');
}

/** A 422 whose detail is a whole sentence, pointing wherever the caller says. */
export function invalid(detail: string, pointer?: string): DomainError {
  return new DomainError('invalid', [{ detail, pointer }]);
}

/**
 * Collects every failed rule of one request so the client sees them all at once: services build
 * every 422 with several items through it. (Body validation turns class-validator's tree into
 * items in common/jsonapi/body.ts.)
 */
export class Violations {
  private readonly items: ErrorItem[] = [];

  attribute(field: string, message: string): this {
    this.items.push({ detail: `${humanize(field)} ${message}`, pointer: attributePointer(field) });
    return this;
  }

  add(detail: string, pointer?: string): this {
    this.items.push({ detail, pointer });
    return this;
  }

  get empty(): boolean {
    return this.items.length === 0;
  }

  /** How many rules have failed so far. */
  get size(): number {
    return this.items.length;
  }

  throwIfAny(): void {
    if (!this.empty) throw new DomainError('invalid', [...this.items]);
  }
}
