import { invalid, Violations } from '../common/errors/domain-error';
import { MAX_KEY_CHARS, MAX_VALUE_BYTES } from '../secrets/sealed-values';

/** A variable of one run: its key and its value as an HCL literal expression (`"\"abc\""`, `5`). */
export interface RunVariable {
  key: string;
  value: string;
}

/** How many variables one run may be given. */
export const MAX_RUN_VARIABLES = 1000;
/** An input variable's name: an HCL identifier. */
export const VARIABLE_NAME = /^[A-Za-z_][A-Za-z0-9_-]*$/;

/**
 * The `variables` attribute of a run's create, checked: an array of `{key, value}`, each key a
 * variable name given once, each value a non-empty string (the CLI sends every value as an HCL
 * literal expression) of at most 256 KB. One 422 item per broken rule; no message repeats a value.
 */
export function checkRunVariables(raw: unknown): RunVariable[] {
  if (raw === undefined) return [];
  const pointer = '/data/attributes/variables';
  if (!Array.isArray(raw)) throw invalid('Variables must be an array of {key, value} objects', pointer);
  if (raw.length > MAX_RUN_VARIABLES)
    throw invalid(`Variables must have at most ${MAX_RUN_VARIABLES} entries`, pointer);
  const v = new Violations();
  const seen = new Set<string>();
  const out: RunVariable[] = [];
  raw.forEach((item: unknown, i) => {
    const at = `${pointer}/${i}`;
    if (typeof item !== 'object' || item === null || Array.isArray(item)) {
      v.add('Variable must be an object with key and value', at);
      return;
    }
    const { key, value } = item as Record<string, unknown>;
    if (typeof key !== 'string' || key === '') v.add("Key can't be blank", `${at}/key`);
    else if ([...key].length > MAX_KEY_CHARS)
      v.add(`Key is too long (maximum is ${MAX_KEY_CHARS} characters)`, `${at}/key`);
    else if (!VARIABLE_NAME.test(key)) v.add('Key is not a valid variable name', `${at}/key`);
    else if (seen.has(key)) v.add('Key is given more than once', `${at}/key`);
    if (typeof value !== 'string')
      v.add('Value must be a string holding an HCL literal expression', `${at}/value`);
    else if (value.trim() === '') v.add("Value can't be blank", `${at}/value`);
    else if (Buffer.byteLength(value) > MAX_VALUE_BYTES)
      v.add(`Value is too long (maximum is ${MAX_VALUE_BYTES} bytes)`, `${at}/value`);
    if (typeof key === 'string') seen.add(key);
    if (typeof key === 'string' && typeof value === 'string') out.push({ key, value });
  });
  v.throwIfAny();
  return out;
}

/** The part of a stored variable that decides whether a run variable of the same name is a secret. */
export interface SensitivityHint {
  key: string;
  category: string;
  sensitive: boolean;
}

const TF_VAR = /^TF_VAR_(.+)$/;

/**
 * The run-variable keys that are sensitive by name: a sensitive `terraform` variable of that key,
 * or a sensitive `env` variable `TF_VAR_<key>` (the same input variable, set through the
 * environment), reaches the workspace. Their values are masked wherever a run is shown or logged.
 */
export function sensitiveRunKeys(reaching: Iterable<SensitivityHint>): Set<string> {
  const keys = new Set<string>();
  for (const v of reaching) {
    if (!v.sensitive) continue;
    if (v.category === 'terraform') keys.add(v.key);
    else if (v.category === 'env') {
      const name = TF_VAR.exec(v.key)?.[1];
      if (name) keys.add(name);
    }
  }
  return keys;
}
