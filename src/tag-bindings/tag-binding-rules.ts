import { invalid, Violations } from '../common/errors/domain-error';

/** One key/value pair as a client sends it. */
export interface TagBindingInput {
  key: string;
  value: string;
}

export const MAX_PROJECT_BINDINGS = 10;
export const MAX_WORKSPACE_BINDINGS = 10;
export const MAX_KEY_LENGTH = 128;
export const MAX_VALUE_LENGTH = 256;

const KEY_PATTERN = /^[A-Za-z0-9_.=+\-@:]+$/;
const PLATFORM_PREFIX = /^hcp?:/i;

/** Keys are compared ignoring case everywhere (uniqueness, upsert, inheritance). */
export const sameKey = (a: string, b: string): boolean => a.toLowerCase() === b.toLowerCase();

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** Adds everything wrong with one `{type, attributes: {key, value}}` item; false when anything was. */
function wellFormed(item: unknown, pointer: string, violations: Violations): boolean {
  if (!isObject(item)) {
    violations.add('Tag binding must be a resource object', pointer);
    return false;
  }
  if (item.type !== 'tag-bindings') {
    violations.add('Type must be tag-bindings', `${pointer}/type`);
    return false;
  }
  const attrs = item.attributes;
  if (!isObject(attrs)) {
    violations.add('Attributes must be an object', `${pointer}/attributes`);
    return false;
  }
  const before = violations.size;
  const keyPointer = `${pointer}/attributes/key`;
  const { key, value } = attrs;
  if (key === undefined || key === null || key === '') {
    violations.add("Key can't be blank", keyPointer);
  } else if (typeof key !== 'string' || key.length > MAX_KEY_LENGTH || !KEY_PATTERN.test(key)) {
    violations.add('Key is invalid', keyPointer);
  } else if (PLATFORM_PREFIX.test(key)) {
    violations.add('Key cannot begin with hc: or hcp:', keyPointer);
  }
  const valuePointer = `${pointer}/attributes/value`;
  if (value !== undefined && value !== null && typeof value !== 'string') {
    violations.add('Value must be a string', valuePointer);
  } else if (typeof value === 'string' && value.length > MAX_VALUE_LENGTH) {
    violations.add(`Value is too long (maximum is ${MAX_VALUE_LENGTH} characters)`, valuePointer);
  }
  return violations.size === before;
}

/**
 * Reads the items of a tag-binding list (`data` of the PATCH body or of the `tag-bindings`
 * relationship). Every failed rule becomes one 422 item; a key given twice is refused.
 */
export function readTagBindings(data: unknown, pointer: string): TagBindingInput[] {
  if (!Array.isArray(data)) throw invalid('Tag bindings must be an array', pointer);
  const violations = new Violations();
  const items: TagBindingInput[] = [];
  data.forEach((raw: unknown, i) => {
    if (!wellFormed(raw, `${pointer}/${i}`, violations)) return;
    const attrs = (raw as { attributes: { key: string; value?: string | null } }).attributes;
    const item = { key: attrs.key, value: attrs.value ?? '' };
    if (items.some((other) => sameKey(other.key, item.key))) {
      violations.add(`Key ${item.key} is given more than once`, `${pointer}/${i}/attributes/key`);
    }
    items.push(item);
  });
  violations.throwIfAny();
  return items;
}

/** Adds new keys and updates the values of existing ones; nothing is removed. */
export function mergeTagBindings(
  existing: TagBindingInput[],
  incoming: TagBindingInput[],
): TagBindingInput[] {
  const merged = existing.map((e) => incoming.find((i) => sameKey(i.key, e.key)) ?? e);
  return [...merged, ...incoming.filter((i) => !existing.some((e) => sameKey(e.key, i.key)))];
}

export interface OverrideCheck {
  /** The workspace's own bindings as they would be after the write. */
  resulting: TagBindingInput[];
  /**
   * The workspace's own bindings before the write, when it stays in the same project. Null when
   * it is new or moves to another project: then every binding counts as a new override.
   */
  previous: TagBindingInput[] | null;
  /** The bindings of the project the workspace would be in. */
  inherited: TagBindingInput[];
  /** Lower-cased reserved keys whose `disable-overrides` is on. */
  locked: ReadonlySet<string>;
}

/**
 * The resulting bindings that would newly override a locked inherited key. An override that
 * already exists, unchanged, in the same project is left alone: turning `disable-overrides` on
 * is not retroactive.
 */
export function forbiddenOverrides(check: OverrideCheck): TagBindingInput[] {
  return check.resulting.filter(
    (r) =>
      check.locked.has(r.key.toLowerCase()) &&
      check.inherited.some((i) => sameKey(i.key, r.key)) &&
      !check.previous?.some((p) => p.key === r.key && p.value === r.value),
  );
}
