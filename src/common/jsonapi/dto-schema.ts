import { applyDecorators } from '@nestjs/common';
import type { SchemaObject } from '@nestjs/swagger/dist/interfaces/open-api-spec.interface';
import { Type } from 'class-transformer';
import { getMetadataStorage, ValidateNested } from 'class-validator';
import type { ClassConstructor } from 'class-transformer';

/**
 * A plain-JSON wire shape declared once, as a class: its class-validator rules validate what comes
 * in, the class is the TypeScript type both ends use, and `schemaOf` reads the same rules into the
 * OpenAPI schema. `Describe` and `Nested` carry what the rules alone do not say.
 */

const DESCRIBED = Symbol('wire:described');
const NESTED = Symbol('wire:nested');

interface Nesting {
  cls: () => ClassConstructor<object>;
  array: boolean;
}

/** The words (and an example) the OpenAPI schema shows for one member. */
export function Describe(description?: string, example?: unknown): PropertyDecorator {
  return (target, key) => {
    const own =
      (Reflect.getMetadata(DESCRIBED, target) as Map<string | symbol, SchemaObject> | undefined) ?? new Map();
    own.set(key, { ...(description ? { description } : {}), ...(example !== undefined ? { example } : {}) });
    Reflect.defineMetadata(DESCRIBED, own, target);
  };
}

/**
 * A member that is an object of `cls` (or, with `array`, each item of the list, which `IsArray`
 * beside it requires), validated member by member.
 */
export function Nested(
  cls: () => ClassConstructor<object>,
  options: { array?: boolean } = {},
): PropertyDecorator {
  const array = options.array ?? false;
  const record: PropertyDecorator = (target, key) => {
    const own =
      (Reflect.getMetadata(NESTED, target) as Map<string | symbol, Nesting> | undefined) ?? new Map();
    own.set(key, { cls, array });
    Reflect.defineMetadata(NESTED, own, target);
  };
  return applyDecorators(Type(cls), ValidateNested({ each: array }), record);
}

/** The OpenAPI schema of a wire class, from its validation rules; members in declaration order. */
export function schemaOf(cls: ClassConstructor<object>): SchemaObject {
  const rules = getMetadataStorage().getTargetValidationMetadatas(cls, '', true, false);
  const members = new Map<string, SchemaObject>();
  const optional = new Set<string>();
  for (const rule of rules) {
    const name = rule.propertyName;
    const schema = members.get(name) ?? {};
    members.set(name, schema);
    const c = rule.constraints as unknown[] | undefined;
    const target = rule.each ? ((schema.items as SchemaObject | undefined) ?? {}) : schema;
    if (rule.each) Object.assign(schema, { type: 'array', items: target });
    switch (rule.name) {
      case 'isOptional':
        schema.nullable = true;
        optional.add(name);
        break;
      case undefined:
        // A ValidateIf (Omittable): the member may be left out.
        if (rule.type === 'conditionalValidation') optional.add(name);
        break;
      case 'isString':
        target.type = 'string';
        break;
      case 'isNotEmpty':
        target.minLength = 1;
        break;
      case 'isBoolean':
        target.type = 'boolean';
        break;
      case 'isInt':
        target.type = 'integer';
        break;
      case 'isIn':
        Object.assign(target, { type: 'string', enum: [...(c![0] as string[])] });
        break;
      case 'min':
        target.minimum = c![0] as number;
        break;
      case 'maxLength':
        target.maxLength = c![0] as number;
        break;
      case 'isArray':
        schema.type = 'array';
        break;
      case 'arrayMaxSize':
        schema.maxItems = c![0] as number;
        break;
      default:
        throw new Error(`schemaOf(${cls.name}): no schema for the rule ${rule.name} of ${name}`);
    }
  }
  const nested =
    (Reflect.getMetadata(NESTED, cls.prototype as object) as Map<string, Nesting> | undefined) ?? new Map();
  for (const [name, { cls: of, array }] of nested) {
    const inner = schemaOf(of());
    const schema = members.get(name)!;
    if (array) schema.items = inner;
    else Object.assign(schema, inner);
  }
  const described =
    (Reflect.getMetadata(DESCRIBED, cls.prototype as object) as Map<string, SchemaObject> | undefined) ??
    new Map();
  const properties = Object.fromEntries(
    [...members].map(([name, schema]) => [name, { ...schema, ...described.get(name) }]),
  );
  const required = [...members.keys()].filter((m) => !optional.has(m));
  return { type: 'object', ...(required.length ? { required } : {}), properties };
}
