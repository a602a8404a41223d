import { badRequest } from '../errors/domain-error';
import type { ResourceObject } from './document';

/**
 * The attribute and relationship names of each resource type, as its serializer's `ResourceDoc`
 * declares them (registered when the OpenAPI decorators describe a route that answers with that
 * type, i.e. when the controllers are loaded). `fields[TYPE]` is checked against it.
 */
const KNOWN = new Map<string, Set<string>>();

export function registerFields(type: string, names: Iterable<string>): void {
  const known = KNOWN.get(type) ?? new Set<string>();
  for (const name of names) known.add(name);
  KNOWN.set(type, known);
}

/** The field names of a type, or undefined for a type no route answers with. */
export function knownFields(type: string): ReadonlySet<string> | undefined {
  return KNOWN.get(type);
}

export function knownTypes(): string[] {
  return [...KNOWN.keys()].sort();
}

/** Requested fieldsets: type → the field names to keep. */
export type Fieldsets = ReadonlyMap<string, ReadonlySet<string>>;

const PREFIX = 'fields[';

const clip = (v: string) => (v.length > 40 ? `${v.slice(0, 40)}…` : v);

/**
 * `fields[TYPE]=a,b` parameters of a query, validated: a type no route answers with, or a name
 * that is not one of the type's attributes or relationships, is a 400 naming the parameter.
 * Undefined when the request asks for no sparse fieldset (the common case costs one key scan).
 */
export function parseFieldsets(query: Record<string, unknown>): Fieldsets | undefined {
  let out: Map<string, Set<string>> | undefined;
  for (const key of Object.keys(query)) {
    if (!key.startsWith(PREFIX)) continue;
    if (!key.endsWith(']') || key.length === PREFIX.length + 1) {
      throw badRequest(`${clip(key)} is not a fieldset parameter; use fields[TYPE]`, clip(key));
    }
    const type = key.slice(PREFIX.length, -1);
    const value = query[key];
    if (typeof value !== 'string')
      throw badRequest(`${clip(key)} must be given once, as a string`, clip(key));
    const known = KNOWN.get(type);
    if (!known) throw badRequest(`${clip(key)} names an unknown resource type`, clip(key));
    const names = value
      .split(',')
      .map((v) => v.trim())
      .filter(Boolean);
    const unknown = names.filter((n) => !known.has(n));
    if (unknown.length) {
      const shown = unknown.slice(0, 3).map(clip).join(', ');
      const more = unknown.length > 3 ? ` and ${unknown.length - 3} more` : '';
      throw badRequest(`${key} contains unknown field ${shown}${more} of ${type}`, key);
    }
    (out ??= new Map()).set(type, new Set(names));
  }
  return out;
}

function pick<T>(from: Record<string, T>, keep: ReadonlySet<string>): Record<string, T> {
  const out: Record<string, T> = {};
  for (const [k, v] of Object.entries(from)) if (keep.has(k)) out[k] = v;
  return out;
}

/** A resource with only the requested attributes and relationships of its type (id, type, links stay). */
export function applyFieldset(resource: ResourceObject, fieldsets: Fieldsets): ResourceObject {
  const keep = fieldsets.get(resource.type);
  if (!keep) return resource;
  const out: ResourceObject = {
    id: resource.id,
    type: resource.type,
    attributes: pick(resource.attributes, keep),
  };
  if (resource.relationships) {
    const relationships = pick(resource.relationships, keep);
    if (Object.keys(relationships).length) out.relationships = relationships;
  }
  if (resource.links) out.links = resource.links;
  return out;
}
