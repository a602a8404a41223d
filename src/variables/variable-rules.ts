import { Violations } from '../common/errors/domain-error';
import { VariableAttributes } from './dto/variable-attributes.dto';
import { VariableCategory } from './entities/variable.entity';

export const VARIABLE_CATEGORIES: readonly VariableCategory[] = ['terraform', 'env'];
export const MAX_KEY_CHARS = 128;
/** 256 KB of UTF-8. */
export const MAX_VALUE_BYTES = 256 * 1024;
export const MAX_DESCRIPTION_CHARS = 512;
/** What a shell can `export`. */
export const ENV_KEY = /^[A-Za-z_][A-Za-z0-9_]*$/;

/** A variable's attributes after a create or an update, before it is stored. */
export interface VariableDraft {
  key: string;
  /** Undefined on an update that leaves the value as it is. */
  value: string | undefined;
  description: string;
  category: VariableCategory;
  hcl: boolean;
  sensitive: boolean;
}

/** What the stored variable was (for an update), as far as the rules care. */
export interface StoredVariable {
  key: string;
  description: string;
  category: VariableCategory;
  hcl: boolean;
  sensitive: boolean;
}

const chars = (s: string) => [...s].length;

function isCategory(value: string | undefined): value is VariableCategory {
  return VARIABLE_CATEGORIES.includes(value as VariableCategory);
}

/**
 * Checks a create (no `stored`) or an update of a variable and answers its attributes after it,
 * or throws one 422 item per broken rule. No message repeats a value: a sensitive one would leak.
 */
export function checkVariable(
  attrs: VariableAttributes,
  stored?: StoredVariable,
  options: { categoryFixed?: boolean } = {},
): VariableDraft {
  const v = new Violations();
  const key = attrs.key ?? stored?.key ?? '';
  const category = attrs.category ?? stored?.category;
  if (!key) v.attribute('key', "can't be blank");
  else if (chars(key) > MAX_KEY_CHARS)
    v.attribute('key', `is too long (maximum is ${MAX_KEY_CHARS} characters)`);
  else if (category === 'env' && !ENV_KEY.test(key)) {
    v.attribute(
      'key',
      'is not a valid environment variable name: use letters, digits and underscores, not starting with a digit',
    );
  }
  if (category === undefined || category === '') v.attribute('category', "can't be blank");
  else if (!isCategory(category)) v.attribute('category', 'is not included in the list');
  const value = attrs.value ?? (stored ? undefined : '');
  if (value !== undefined && Buffer.byteLength(value) > MAX_VALUE_BYTES)
    v.attribute('value', `is too long (maximum is ${MAX_VALUE_BYTES} bytes)`);
  const description = attrs.description ?? stored?.description ?? '';
  if (chars(description) > MAX_DESCRIPTION_CHARS)
    v.attribute('description', `is too long (maximum is ${MAX_DESCRIPTION_CHARS} characters)`);
  if (stored) {
    if (options.categoryFixed && attrs.category !== undefined && attrs.category !== stored.category)
      v.attribute('category', 'cannot be changed');
    if (stored.sensitive && attrs.sensitive === false) {
      v.attribute(
        'sensitive',
        "can't be changed from true to false on saved records. Delete the variable and create a new one instead",
      );
    }
    if (stored.sensitive) {
      for (const [name, before] of [
        ['key', stored.key],
        ['category', stored.category],
        ['hcl', stored.hcl],
      ] as const) {
        const sent = attrs[name];
        if (sent !== undefined && sent !== before) {
          v.attribute(
            name,
            'of a sensitive variable cannot be changed: delete the variable and create a new one',
          );
        }
      }
    }
  }
  v.throwIfAny();
  return {
    key,
    category: category as VariableCategory,
    value,
    description,
    hcl: attrs.hcl ?? stored?.hcl ?? false,
    sensitive: attrs.sensitive ?? stored?.sensitive ?? false,
  };
}
