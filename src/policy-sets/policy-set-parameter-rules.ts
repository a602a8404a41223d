import { Violations } from '../common/errors/domain-error';

/** The only category of a policy set parameter (the real service's `CategoryPolicySet`). */
export const PARAMETER_CATEGORY = 'policy-set';
export const MAX_PARAMETER_KEY_CHARS = 128;
/** 256 KB of UTF-8, as for variables. */
export const MAX_PARAMETER_VALUE_BYTES = 256 * 1024;

/** A parameter's attributes as sent on create or update (each may be left out). */
export interface ParameterAttributes {
  key?: string;
  value?: string;
  category?: string;
  sensitive?: boolean;
}

/** What a parameter is after a create or update, before it is stored (`value` undefined: unchanged). */
export interface ParameterDraft {
  key: string;
  value: string | undefined;
  sensitive: boolean;
}

/**
 * Checks a create (no `stored`) or an update of a parameter, or throws one 422 item per broken
 * rule: a key of 1–128 characters, the category `policy-set` (required on create), a value of at
 * most 256 KB, and a sensitive parameter stays sensitive and keeps its key. No message repeats a value.
 */
export function checkParameter(
  attrs: ParameterAttributes,
  stored?: { key: string; sensitive: boolean },
): ParameterDraft {
  const v = new Violations();
  const key = attrs.key ?? stored?.key ?? '';
  if (!key) v.attribute('key', "can't be blank");
  else if ([...key].length > MAX_PARAMETER_KEY_CHARS)
    v.attribute('key', `is too long (maximum is ${MAX_PARAMETER_KEY_CHARS} characters)`);
  if (!stored && (attrs.category === undefined || attrs.category === ''))
    v.attribute('category', "can't be blank");
  else if (attrs.category !== undefined && attrs.category !== PARAMETER_CATEGORY)
    v.attribute('category', `must be ${PARAMETER_CATEGORY}`);
  const value = attrs.value ?? (stored ? undefined : '');
  if (value !== undefined && Buffer.byteLength(value) > MAX_PARAMETER_VALUE_BYTES)
    v.attribute('value', `is too long (maximum is ${MAX_PARAMETER_VALUE_BYTES} bytes)`);
  if (stored?.sensitive) {
    if (attrs.sensitive === false) {
      v.attribute(
        'sensitive',
        "can't be changed from true to false on saved records. Delete the parameter and create a new one instead",
      );
    }
    if (attrs.key !== undefined && attrs.key !== stored.key)
      v.attribute(
        'key',
        'of a sensitive parameter cannot be changed: delete the parameter and create a new one',
      );
  }
  v.throwIfAny();
  return { key, value, sensitive: attrs.sensitive ?? stored?.sensitive ?? false };
}
