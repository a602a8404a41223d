/**
 * What Plinth reads from a state file: the fields it is checked against (serial, lineage) and the
 * summary shown on its state version (resources, modules, providers, outputs). Pure functions over
 * the parsed JSON; the format is Terraform's (https://developer.hashicorp.com/terraform/internals/json-format
 * describes the neighbouring `show -json` form). Summaries are read from format 4, which every
 * Terraform since 0.12 writes; older formats are kept and served, with empty summaries.
 */

export type JsonValue = string | number | boolean | null | JsonValue[] | { [key: string]: JsonValue };

/** One entry of a state version's `resources`, as the real service lists them. */
export interface StateResource {
  name: string;
  /** The resource type, `data.` in front for a data source. */
  type: string;
  /** Instances of the resource (one without count or for_each). */
  count: number;
  /** `root` or the module address (`module.network`). */
  module: string;
  /** The provider address as the state writes it: `provider["registry.terraform.io/hashicorp/null"]`. */
  provider: string;
}

export interface StateSummary {
  resources: StateResource[];
  /** Per module, resource counts by type (`null-resource`, `data.terraform-remote-state`). */
  modules: Record<string, Record<string, number>>;
  /** Per provider address, resource counts by type. */
  providers: Record<string, Record<string, number>>;
  /** Instances of managed resources (data sources left out). */
  resourceCount: number;
}

export interface StateOutput {
  name: string;
  sensitive: boolean;
  /** `string`, `number`, `boolean`, `array`, `object` or `null`. */
  type: string;
  /** Terraform's type of the value: `"string"`, `["list","string"]`, `["object",{…}]`. */
  detailedType: JsonValue;
  value: JsonValue;
}

export interface StateFile {
  format: number | null;
  terraformVersion: string | null;
  serial: number | null;
  lineage: string | null;
  summary: StateSummary;
  outputs: StateOutput[];
}

export type StateFileReading = { ok: true; state: StateFile } | { ok: false; reason: string };

type Json = Record<string, JsonValue>;

const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);
const text = (v: unknown): string | null => (typeof v === 'string' ? v : null);
const whole = (v: unknown): number | null => (Number.isSafeInteger(v) ? (v as number) : null);

/** Reads a raw state file; anything but a JSON object is refused. */
export function readStateFile(bytes: Buffer): StateFileReading {
  let parsed: JsonValue;
  try {
    parsed = JSON.parse(bytes.toString('utf8')) as JsonValue;
  } catch {
    return { ok: false, reason: 'the state is not valid JSON' };
  }
  if (!isObject(parsed)) return { ok: false, reason: 'the state is not a JSON object' };
  const format = whole(parsed.version);
  const current = format === 4;
  return {
    ok: true,
    state: {
      format,
      terraformVersion: text(parsed.terraform_version)?.slice(0, 64) ?? null,
      serial: whole(parsed.serial),
      lineage: text(parsed.lineage),
      summary: summarise(current && Array.isArray(parsed.resources) ? parsed.resources : []),
      outputs: current && isObject(parsed.outputs) ? outputsOf(parsed.outputs) : [],
    },
  };
}

/** `null_resource` → `null-resource`, `data.` in front for data sources: the real service's keys. */
const countKey = (dataSource: boolean, type: string) =>
  `${dataSource ? 'data.' : ''}${type.replace(/_/g, '-')}`;

function summarise(entries: JsonValue[]): StateSummary {
  const summary: StateSummary = { resources: [], modules: {}, providers: {}, resourceCount: 0 };
  for (const entry of entries) {
    if (!isObject(entry)) continue;
    const type = text(entry.type);
    const name = text(entry.name);
    if (!type || !name) continue;
    const dataSource = entry.mode === 'data';
    const count = Array.isArray(entry.instances) ? entry.instances.length : 0;
    const module = text(entry.module) ?? 'root';
    const provider = text(entry.provider) ?? '';
    summary.resources.push({ name, type: dataSource ? `data.${type}` : type, count, module, provider });
    const key = countKey(dataSource, type);
    const perModule = (summary.modules[module] ??= {});
    perModule[key] = (perModule[key] ?? 0) + count;
    const perProvider = (summary.providers[provider] ??= {});
    perProvider[key] = (perProvider[key] ?? 0) + count;
    if (!dataSource) summary.resourceCount += count;
  }
  return summary;
}

function outputsOf(outputs: Json): StateOutput[] {
  return Object.entries(outputs)
    .filter((entry): entry is [string, Json] => isObject(entry[1]))
    .map(([name, output]) => {
      const detailedType = output.type ?? typeOfValue(output.value);
      return {
        name,
        sensitive: output.sensitive === true,
        type: coarseType(detailedType, output.value),
        detailedType,
        value: output.value ?? null,
      };
    })
    .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
}

/** Terraform's type of a JSON value, for outputs written without one. */
function typeOfValue(value: JsonValue | undefined): JsonValue {
  if (typeof value === 'string') return 'string';
  if (typeof value === 'number') return 'number';
  if (typeof value === 'boolean') return 'bool';
  if (Array.isArray(value)) return ['tuple', value.map(typeOfValue)];
  if (isObject(value)) {
    return ['object', Object.fromEntries(Object.entries(value).map(([k, v]) => [k, typeOfValue(v)]))];
  }
  return 'dynamic';
}

/** Terraform's type names by the JSON type of their values. */
const COARSE_TYPES: Record<string, string> = {
  string: 'string',
  number: 'number',
  bool: 'boolean',
  list: 'array',
  tuple: 'array',
  set: 'array',
  map: 'object',
  object: 'object',
};

function coarseType(detailedType: JsonValue, value: JsonValue | undefined): string {
  const kind = Array.isArray(detailedType) ? detailedType[0] : detailedType;
  if (typeof kind === 'string' && Object.hasOwn(COARSE_TYPES, kind)) return COARSE_TYPES[kind];
  if (value === null || value === undefined) return 'null';
  if (Array.isArray(value)) return 'array';
  return typeof value === 'boolean' ? 'boolean' : typeof value === 'object' ? 'object' : typeof value;
}

/** Why a state file does not match what its state version declared, or null when it does. */
export function declarationMismatch(
  state: StateFile,
  declared: { serial: number; lineage: string | null },
): string | null {
  if (state.serial !== null && state.serial !== declared.serial) {
    return `the serial inside the state (${state.serial}) is not the serial of the state version (${declared.serial})`;
  }
  if (state.lineage !== null && declared.lineage !== null && state.lineage !== declared.lineage) {
    return 'the lineage inside the state is not the lineage of the state version';
  }
  return null;
}
