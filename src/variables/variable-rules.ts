import { Violations } from '../common/errors/domain-error';
import { checkStaysSensitive, checkValue, keyProblem } from '../secrets/sealed-values';
import { VariableAttributes } from './dto/variable-attributes.dto';
import { VariableCategory } from './entities/variable.entity';

export const VARIABLE_CATEGORIES: readonly VariableCategory[] = ['terraform', 'env'];
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
  const problem = keyProblem(key);
  if (problem) v.attribute('key', problem);
  else if (category === 'env' && !ENV_KEY.test(key)) {
    v.attribute(
      'key',
      'is not a valid environment variable name: use letters, digits and underscores, not starting with a digit',
    );
  }
  if (category === undefined || category === '') v.attribute('category', "can't be blank");
  else if (!isCategory(category)) v.attribute('category', 'is not included in the list');
  const value = checkValue(v, attrs.value, !!stored);
  const description = attrs.description ?? stored?.description ?? '';
  if (chars(description) > MAX_DESCRIPTION_CHARS)
    v.attribute('description', `is too long (maximum is ${MAX_DESCRIPTION_CHARS} characters)`);
  if (stored) {
    if (options.categoryFixed && attrs.category !== undefined && attrs.category !== stored.category)
      v.attribute('category', 'cannot be changed');
    checkStaysSensitive(v, 'variable', attrs, stored, ['key', 'category', 'hcl']);
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
