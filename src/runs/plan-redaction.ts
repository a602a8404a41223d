/**
 * The plan JSON (`terraform show -json` of a plan) with every value the tool marked sensitive
 * replaced by null, what `GET /plans/:id/json-output-redacted` answers. The masks themselves
 * (`before_sensitive`, `after_sensitive`, `sensitive_values`, `sensitive`) stay, so a renderer
 * still shows "(sensitive value)" where a value was.
 */

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
type JsonObject = { [key: string]: Json };

const isObject = (v: unknown): v is JsonObject => typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * `value` with the parts `mask` marks sensitive nulled. A mask mirrors the value: `true` marks
 * the whole value, an object or array marks members and elements, anything else marks nothing.
 */
export function redactByMask(value: Json, mask: unknown): Json {
  if (mask === true) return null;
  if (Array.isArray(value) && Array.isArray(mask)) {
    return value.map((v, i) => redactByMask(v, mask[i]));
  }
  if (isObject(value) && isObject(mask)) {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, redactByMask(v, mask[k])]));
  }
  return value;
}

/** A `change` object: before and after, each under its own mask. */
function redactChange(change: Json): Json {
  if (!isObject(change)) return change;
  const out = { ...change };
  if ('before' in out) out.before = redactByMask(out.before, out.before_sensitive);
  if ('after' in out) out.after = redactByMask(out.after, out.after_sensitive);
  return out;
}

function redactResourceChanges(list: Json): Json {
  if (!Array.isArray(list)) return list;
  return list.map((rc) => (isObject(rc) ? { ...rc, change: redactChange(rc.change) } : rc));
}

function redactOutputs(outputs: Json): Json {
  if (!isObject(outputs)) return outputs;
  return Object.fromEntries(
    Object.entries(outputs).map(([name, o]) => [
      name,
      isObject(o) && o.sensitive === true ? { ...o, value: null } : o,
    ]),
  );
}

/** A module of `planned_values` or `prior_state.values`: resources by their `sensitive_values`. */
function redactModule(module: Json): Json {
  if (!isObject(module)) return module;
  const out = { ...module };
  if (Array.isArray(out.resources)) {
    out.resources = out.resources.map((r) =>
      isObject(r) ? { ...r, values: redactByMask(r.values, r.sensitive_values) } : r,
    );
  }
  if (Array.isArray(out.child_modules)) out.child_modules = out.child_modules.map(redactModule);
  return out;
}

function redactValues(values: Json): Json {
  if (!isObject(values)) return values;
  const out = { ...values };
  if ('outputs' in out) out.outputs = redactOutputs(out.outputs);
  if ('root_module' in out) out.root_module = redactModule(out.root_module);
  return out;
}

/** Root module variables declared `sensitive = true`: their values and defaults. */
function sensitiveVariables(configuration: Json): Set<string> {
  const declared =
    isObject(configuration) && isObject(configuration.root_module)
      ? configuration.root_module.variables
      : undefined;
  if (!isObject(declared)) return new Set();
  return new Set(
    Object.keys(declared).filter((k) => isObject(declared[k]) && declared[k].sensitive === true),
  );
}

function redactConfiguration(configuration: Json, sensitive: Set<string>): Json {
  if (!isObject(configuration) || !isObject(configuration.root_module) || sensitive.size === 0) {
    return configuration;
  }
  const variables = configuration.root_module.variables as JsonObject;
  const redacted = Object.fromEntries(
    Object.entries(variables).map(([k, v]) => [
      k,
      sensitive.has(k) && isObject(v) && 'default' in v ? { ...v, default: null } : v,
    ]),
  );
  return { ...configuration, root_module: { ...configuration.root_module, variables: redacted } };
}

export function redactPlanJson(plan: Json): Json {
  if (!isObject(plan)) return plan;
  const out = { ...plan };
  const sensitive = sensitiveVariables(plan.configuration);
  if (isObject(out.variables)) {
    const variables = out.variables;
    out.variables = Object.fromEntries(
      Object.entries(variables).map(([k, v]) => [
        k,
        sensitive.has(k) && isObject(v) ? { ...v, value: null } : v,
      ]),
    );
  }
  if ('configuration' in out) out.configuration = redactConfiguration(out.configuration, sensitive);
  if ('planned_values' in out) out.planned_values = redactValues(out.planned_values);
  if (isObject(out.prior_state) && 'values' in out.prior_state) {
    out.prior_state = { ...out.prior_state, values: redactValues(out.prior_state.values) };
  }
  for (const key of ['resource_changes', 'resource_drift'] as const) {
    if (key in out) out[key] = redactResourceChanges(out[key]);
  }
  if (isObject(out.output_changes)) {
    const changes = out.output_changes;
    out.output_changes = Object.fromEntries(Object.entries(changes).map(([k, c]) => [k, redactChange(c)]));
  }
  if (Array.isArray(out.deferred_changes)) {
    out.deferred_changes = out.deferred_changes.map((d) =>
      isObject(d) && isObject(d.resource_change)
        ? { ...d, resource_change: { ...d.resource_change, change: redactChange(d.resource_change.change) } }
        : d,
    );
  }
  return out;
}

export type { Json as PlanJson };
