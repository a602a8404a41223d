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

/** The natural keys a unique index guards, each refused with its own code (`NAME_TAKEN`, …). */
export type TakenField = 'name' | 'key' | 'version' | 'description';

/**
 * A refusal a program may want to tell apart from others of the same status, in words it can
 * branch on and an operator can search for: the JSON:API error object's `code`, the request's log
 * line and its audit event. Only refusals named here carry one; every other error is told by its
 * status. docs/jsonapi.md says what each means; the OpenAPI document lists them.
 */
export const ERROR_CODES = [
  'NAME_TAKEN',
  'KEY_TAKEN',
  'VERSION_TAKEN',
  'DESCRIPTION_TAKEN',
  'USERNAME_TAKEN',
  'TEAM_ACCESS_TAKEN',
  'PLATFORM_TAKEN',
  'GPG_KEY_TAKEN',
  'RUN_TRIGGER_TAKEN',
  'RUN_NOT_CONFIRMABLE',
  'RUN_NOT_DISCARDABLE',
  'RUN_NOT_CANCELABLE',
  'RUN_NOT_FORCE_CANCELABLE',
  'WORKSPACE_ALREADY_LOCKED',
  'WORKSPACE_NOT_LOCKED',
  'WORKSPACE_LOCKED_BY_ANOTHER',
  'UPLOAD_LINK_USED',
  'SHASUMS_ALREADY_UPLOADED',
  'SHASUMS_SIGNATURE_ALREADY_UPLOADED',
  'BINARY_ALREADY_UPLOADED',
] as const;

export type ErrorCode = (typeof ERROR_CODES)[number];

export interface ErrorItem {
  detail?: string;
  /** Which refusal this is, when it is one a client may tell apart (`NAME_TAKEN`). */
  code?: ErrorCode;
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

  /** The first coded refusal among the items, for the log line; undefined when none has a code. */
  get code(): ErrorCode | undefined {
    return this.items.find((i) => i.code)?.code;
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

export function conflict(detail: string, code?: ErrorCode): DomainError {
  return new DomainError('conflict', [{ detail, code }]);
}

/** A 422 about one attribute: `invalidAttribute('name', 'has already been taken')` → "Name has already been taken". */
export function invalidAttribute(field: string, message: string, code?: ErrorCode): DomainError {
  return new DomainError('invalid', [
    { detail: `${humanize(field)} ${message}`, pointer: attributePointer(field), code },
  ]);
}

/** The 422 of a natural key already in use: `taken('name')` → "Name has already been taken", `NAME_TAKEN`. */
export function taken(field: TakenField): DomainError {
  return invalidAttribute(field, 'has already been taken', takenCode(field));
}

export function takenCode(field: TakenField): ErrorCode {
  return `${field.toUpperCase() as Uppercase<TakenField>}_TAKEN`;
}

/** A 422 whose detail is a whole sentence, pointing wherever the caller says. */
export function invalid(detail: string, pointer?: string, code?: ErrorCode): DomainError {
  return new DomainError('invalid', [{ detail, pointer, code }]);
}

/**
 * Collects every failed rule of one request so the client sees them all at once: services build
 * every 422 with several items through it. (Body validation turns class-validator's tree into
 * items in common/jsonapi/body.ts.)
 */
export class Violations {
  private readonly items: ErrorItem[] = [];

  attribute(field: string, message: string, code?: ErrorCode): this {
    this.items.push({ detail: `${humanize(field)} ${message}`, pointer: attributePointer(field), code });
    return this;
  }

  /** "<Field> has already been taken", coded as `taken(field)` is. */
  taken(field: TakenField): this {
    return this.attribute(field, 'has already been taken', takenCode(field));
  }

  add(detail: string, pointer?: string, code?: ErrorCode): this {
    this.items.push({ detail, pointer, code });
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
