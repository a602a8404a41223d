import { Violations } from '../common/errors/domain-error';
import { checkStaysSensitive, checkValue, keyProblem } from '../secrets/sealed-values';

/** The only category of a policy set parameter (the real service's `CategoryPolicySet`). */
export const PARAMETER_CATEGORY = 'policy-set';

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
  const problem = keyProblem(key);
  if (problem) v.attribute('key', problem);
  if (!stored && (attrs.category === undefined || attrs.category === ''))
    v.attribute('category', "can't be blank");
  else if (attrs.category !== undefined && attrs.category !== PARAMETER_CATEGORY)
    v.attribute('category', `must be ${PARAMETER_CATEGORY}`);
  const value = checkValue(v, attrs.value, !!stored);
  if (stored) checkStaysSensitive(v, 'parameter', attrs, stored, ['key']);
  v.throwIfAny();
  return { key, value, sensitive: attrs.sensitive ?? stored?.sensitive ?? false };
}
