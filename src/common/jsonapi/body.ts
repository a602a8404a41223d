import { Body, Injectable, PipeTransform } from '@nestjs/common';
import { ClassConstructor, plainToInstance } from 'class-transformer';
import { validateSync, ValidationError } from 'class-validator';
import { attributePointer, DomainError, ErrorItem, humanize, invalid } from '../errors/domain-error';
import { ResourceIdentifier } from './document';

export interface JsonApiBodyOptions {
  /** Accepted values of `data.type`. */
  types?: readonly string[];
  /** When false, a missing or empty `data.type` is tolerated (some official clients send none). */
  typeRequired?: boolean;
  /** When true, an absent or empty body reads as a document with no attributes. */
  optional?: boolean;
  /**
   * On a PATCH, whether the route's last path parameter is the resource's id, so that a `data.id`
   * naming another resource is a 409 (JsonApiRequestGuard checks it). Default true; false where
   * the URL names the resource some other way (a workspace by its name, a GPG key by its key id).
   */
  urlId?: boolean;
}

/** A request document after validation: attributes typed, relationships raw until a service reads them. */
export class ParsedBody<A extends object> {
  constructor(
    readonly attributes: A,
    /** Attribute names the client actually sent, for "omitted keeps its value" updates. */
    readonly sent: ReadonlySet<string>,
    readonly relationships: Record<string, unknown>,
    readonly id?: string,
  ) {}

  has(attribute: string): boolean {
    return this.sent.has(attribute);
  }

  hasRelationship(name: string): boolean {
    return Object.prototype.hasOwnProperty.call(this.relationships, name);
  }

  /** The identifiers of a to-many relationship, each checked against the expected type. */
  toMany(name: string, type: string): ResourceIdentifier[] | undefined {
    if (!this.hasRelationship(name)) return undefined;
    return readIdentifiers(this.relationships[name], type, `/data/relationships/${name}`);
  }

  /** The identifier of a to-one relationship (`null` clears it). */
  toOne(name: string, type: string): ResourceIdentifier | null | undefined {
    if (!this.hasRelationship(name)) return undefined;
    const rel = this.relationships[name];
    const pointer = `/data/relationships/${name}`;
    if (!isObject(rel) || !('data' in rel)) throw invalid(`Relationship ${name} must have data`, pointer);
    if (rel.data === null) return null;
    return readIdentifier(rel.data, type, `${pointer}/data`);
  }
}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** Reads `{id, type}` from an identifier or a full resource object; only `id` and `type` count. */
export function readIdentifier(value: unknown, type: string, pointer: string): ResourceIdentifier {
  if (!isObject(value)) throw invalid('must be a resource identifier object', pointer);
  if (typeof value.id !== 'string' || value.id === '')
    throw invalid('Id must be a non-empty string', `${pointer}/id`);
  if (value.type !== type) throw invalid(`Type must be ${type}`, `${pointer}/type`);
  return { id: value.id, type };
}

/**
 * The most identifiers one relationship write may carry (docs/api.md). Each one becomes bound
 * parameters of a lookup and an insert or delete; SQLite refuses a statement with more than 32,766.
 */
export const MAX_RELATIONSHIP_IDENTIFIERS = 1000;

/** Reads a relationship object's `data` array, or a bare identifier-array document (`{data: [...]}`). */
export function readIdentifiers(rel: unknown, type: string, pointer: string): ResourceIdentifier[] {
  if (!isObject(rel) || !Array.isArray(rel.data)) {
    throw invalid('Relationship data must be an array of resource identifiers', `${pointer}/data`);
  }
  if (rel.data.length > MAX_RELATIONSHIP_IDENTIFIERS) {
    throw invalid(
      `Data must have at most ${MAX_RELATIONSHIP_IDENTIFIERS} resource identifiers`,
      `${pointer}/data`,
    );
  }
  const seen = new Set<string>();
  const out: ResourceIdentifier[] = [];
  rel.data.forEach((item, i) => {
    const ident = readIdentifier(item, type, `${pointer}/data/${i}`);
    if (!seen.has(ident.id)) out.push(ident);
    seen.add(ident.id);
  });
  return out;
}

/** Constraints that fail because the JSON type is wrong; when one fails, the value's other rules say nothing useful. */
const TYPE_CONSTRAINTS = new Set(['isString', 'isBoolean', 'isInt', 'isNumber', 'isObject', 'isArray']);

/**
 * Marks a rule whose failure is reported even for a missing value, next to "can't be blank"
 * (the reference service answers a missing `registry-name` with both errors):
 * `@IsIn(names, { message: 'is not included in the list', context: ALSO_WHEN_BLANK })`.
 */
export const ALSO_WHEN_BLANK = { alsoWhenBlank: true };

/**
 * The messages worth showing for one attribute: "can't be blank" alone for a missing value
 * (plus rules marked ALSO_WHEN_BLANK), the type rule alone for a value of the wrong type
 * ("Name must be a string", not also "Name is too long"), otherwise every failed rule.
 */
function messagesOf(e: ValidationError): string[] {
  const constraints = e.constraints ?? {};
  const blank = e.value === undefined || e.value === null || e.value === '';
  if (blank && constraints.isNotEmpty) {
    const also = Object.keys(constraints).filter(
      (k) =>
        k !== 'isNotEmpty' && (e.contexts?.[k] as { alsoWhenBlank?: boolean } | undefined)?.alsoWhenBlank,
    );
    return [constraints.isNotEmpty, ...also.map((k) => constraints[k])];
  }
  const typeRules = Object.keys(constraints).filter((k) => TYPE_CONSTRAINTS.has(k));
  if (typeRules.length) return typeRules.map((k) => constraints[k]);
  return [...new Set(Object.values(constraints))];
}

function flatten(errors: ValidationError[], prefix = ''): ErrorItem[] {
  const items: ErrorItem[] = [];
  for (const e of errors) {
    const field = prefix ? `${prefix}.${e.property}` : e.property;
    for (const message of messagesOf(e)) {
      const text = message.startsWith(`${e.property} `) ? message.slice(e.property.length + 1) : message;
      items.push({ detail: `${humanize(field)} ${text}`, pointer: attributePointer(field) });
    }
    if (e.children?.length) items.push(...flatten(e.children, field));
  }
  return items;
}

/** Validates a plain object against a class-validator class; every failed rule becomes one 422 item. */
export function validateAttributes<A extends object>(
  cls: ClassConstructor<A>,
  plain: Record<string, unknown>,
): A {
  const instance = plainToInstance(cls, plain, {
    enableImplicitConversion: false,
    exposeDefaultValues: false,
  });
  const errors = validateSync(instance, { whitelist: true, forbidUnknownValues: false });
  if (errors.length) throw new DomainError('invalid', flatten(errors));
  return instance;
}

@Injectable()
export class JsonApiBodyPipe<A extends object> implements PipeTransform<unknown, ParsedBody<A>> {
  constructor(
    private readonly attributes: ClassConstructor<A>,
    private readonly options: JsonApiBodyOptions,
  ) {}

  transform(body: unknown): ParsedBody<A> {
    if (this.options.optional && (body === undefined || (isObject(body) && Object.keys(body).length === 0))) {
      return new ParsedBody(validateAttributes(this.attributes, {}), new Set(), {});
    }
    if (!isObject(body)) {
      throw new DomainError('bad-request', [{ detail: 'request body must be a JSON:API document' }]);
    }
    const data = body.data;
    if (!isObject(data)) throw invalid('Data must be a resource object', '/data');
    const { types, typeRequired = true } = this.options;
    if (types) {
      const type = data.type;
      const absent = type === undefined || type === null || type === '';
      if (!(absent && !typeRequired) && !types.includes(type as string)) {
        const detail = `Type must be ${types.join(' or ')}`;
        // JSON:API: a type that names another kind of resource is a conflict with the endpoint.
        if (typeof type === 'string' && !absent) {
          throw new DomainError('conflict', [{ detail, pointer: '/data/type' }]);
        }
        throw invalid(detail, '/data/type');
      }
    }
    if (data.attributes !== undefined && data.attributes !== null && !isObject(data.attributes)) {
      throw invalid('Attributes must be an object', '/data/attributes');
    }
    if (data.relationships !== undefined && data.relationships !== null && !isObject(data.relationships)) {
      throw invalid('Relationships must be an object', '/data/relationships');
    }
    const raw = (data.attributes as Record<string, unknown> | undefined) ?? {};
    const attributes = validateAttributes(this.attributes, raw);
    return new ParsedBody(
      attributes,
      new Set(Object.keys(raw)),
      (data.relationships as Record<string, unknown> | undefined) ?? {},
      typeof data.id === 'string' ? data.id : undefined,
    );
  }
}

/** Handler metadata set by `@JsonApiBody`: what the body must look like, for the OpenAPI document. */
export const BODY_SHAPE = 'plinth:jsonapi-body-shape';

export interface BodyShape {
  attributes: ClassConstructor<object>;
  types?: readonly string[];
  typeRequired: boolean;
  urlId: boolean;
}

/**
 * The request body as a validated JSON:API document whose attributes follow `attributes`. Also
 * records the body's shape on the handler, so that its OpenAPI request schema (ApiCreate,
 * ApiUpdate) names the accepted types and the attributes the DTO requires.
 */
export function JsonApiBody<A extends object>(
  attributes: ClassConstructor<A>,
  options: JsonApiBodyOptions = {},
): ParameterDecorator {
  const body = Body(new JsonApiBodyPipe(attributes, options));
  return (target, key, index) => {
    if (key !== undefined) {
      const shape: BodyShape = {
        attributes,
        types: options.types,
        typeRequired: options.typeRequired ?? true,
        urlId: options.urlId ?? true,
      };
      Reflect.defineMetadata(BODY_SHAPE, shape, (target as Record<string | symbol, object>)[key]);
    }
    body(target, key, index);
  };
}

/** An identifier-array document (`{data: [{id, type}]}`) as used by relationship endpoints. */
export class IdentifierArrayPipe implements PipeTransform<unknown, ResourceIdentifier[]> {
  constructor(private readonly type: string) {}

  transform(body: unknown): ResourceIdentifier[] {
    if (!isObject(body)) {
      throw new DomainError('bad-request', [{ detail: 'request body must be a JSON:API document' }]);
    }
    return readIdentifiers(body, this.type, '');
  }
}

export function IdentifierArray(type: string): ParameterDecorator {
  return Body(new IdentifierArrayPipe(type));
}
