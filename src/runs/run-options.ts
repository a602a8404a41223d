import { ErrorItem } from '../common/errors/domain-error';

/** How many addresses one of `target-addrs` / `replace-addrs` may list. */
export const MAX_RUN_ADDRESSES = 100;
/** How long one resource address may be (characters). */
export const MAX_ADDRESS_LENGTH = 1000;

/** Whether a string has a control character (newlines included): no address has one. */
const hasControl = (s: string) => [...s].some((c) => c.charCodeAt(0) < 0x20 || c.charCodeAt(0) === 0x7f);
/** A release (`1.9.5`, `1.10.0-beta1`), as the tool's version catalogs name them. */
const TOOL_VERSION = /^\d+\.\d+\.\d+(?:-[0-9A-Za-z.]+)?$/;

/** How a run plans, as `POST /runs` asks (after defaults), and as the executor receives it. */
export interface RunOptions {
  isDestroy: boolean;
  refresh: boolean;
  refreshOnly: boolean;
  targetAddrs: string[];
  replaceAddrs: string[];
  allowEmptyApply: boolean;
  allowConfigGeneration: boolean;
  savePlan: boolean;
  terraformVersion: string | null;
}

/** The options every run has unless `POST /runs` says otherwise (runs queued by uploads and triggers). */
export const DEFAULT_RUN_OPTIONS: RunOptions = {
  isDestroy: false,
  refresh: true,
  refreshOnly: false,
  targetAddrs: [],
  replaceAddrs: [],
  allowEmptyApply: false,
  allowConfigGeneration: false,
  savePlan: false,
  terraformVersion: null,
};

/**
 * The planning options as runs show them and job claims carry them (after `is-destroy` and
 * `plan-only`, which both also show): one wire shape for the API and the executor protocol.
 */
export function runOptionsWire(
  run: Omit<RunOptions, 'isDestroy' | 'targetAddrs' | 'replaceAddrs'> & {
    targetAddrs: string[] | null;
    replaceAddrs: string[] | null;
  },
) {
  return {
    refresh: run.refresh,
    'refresh-only': run.refreshOnly,
    'target-addrs': run.targetAddrs ?? [],
    'replace-addrs': run.replaceAddrs ?? [],
    'allow-empty-apply': run.allowEmptyApply,
    'allow-config-generation': run.allowConfigGeneration,
    'save-plan': run.savePlan,
    'terraform-version': run.terraformVersion,
  };
}

const pointer = (field: string, index?: number) =>
  `/data/attributes/${field}${index === undefined ? '' : `/${index}`}`;

/** One problem per bad address of `target-addrs` or `replace-addrs` (an array, checked by the DTO). */
export function addressProblems(field: 'target-addrs' | 'replace-addrs', addrs: unknown[]): ErrorItem[] {
  const name = field === 'target-addrs' ? 'Target addrs' : 'Replace addrs';
  if (addrs.length > MAX_RUN_ADDRESSES) {
    return [{ detail: `${name} may list at most ${MAX_RUN_ADDRESSES} addresses`, pointer: pointer(field) }];
  }
  const problems: ErrorItem[] = [];
  const seen = new Set<string>();
  addrs.forEach((addr, i) => {
    const at = pointer(field, i);
    if (typeof addr !== 'string') problems.push({ detail: `${name} entries must be strings`, pointer: at });
    else if (!addr.trim()) problems.push({ detail: `${name} entries can't be blank`, pointer: at });
    else if (addr.length > MAX_ADDRESS_LENGTH) {
      problems.push({
        detail: `${name} entries are too long (maximum is ${MAX_ADDRESS_LENGTH} characters)`,
        pointer: at,
      });
    } else if (hasControl(addr) || addr !== addr.trim() || addr.startsWith('-')) {
      problems.push({ detail: `${name} entries must be resource addresses`, pointer: at });
    } else if (seen.has(addr)) problems.push({ detail: `${name} lists ${addr} twice`, pointer: at });
    else seen.add(addr);
  });
  return problems;
}

/**
 * The rules between options, as the real service and the tool state them: a refresh-only plan
 * neither destroys, nor skips the refresh, nor replaces; a tool version is for plan-only runs; a
 * plan-only run cannot be saved for a later apply.
 */
export function optionProblems(options: RunOptions, planOnly: boolean): ErrorItem[] {
  const problems: ErrorItem[] = [];
  if (options.refreshOnly && options.isDestroy) {
    problems.push({
      detail: 'Refresh only cannot be combined with is-destroy',
      pointer: pointer('refresh-only'),
    });
  }
  if (options.refreshOnly && !options.refresh) {
    problems.push({
      detail: 'Refresh only cannot be combined with refresh false: the run would have nothing to do',
      pointer: pointer('refresh-only'),
    });
  }
  if (options.refreshOnly && options.replaceAddrs.length) {
    problems.push({
      detail: 'Replace addrs cannot be used in a refresh-only run',
      pointer: pointer('replace-addrs'),
    });
  }
  if (options.terraformVersion !== null) {
    if (!TOOL_VERSION.test(options.terraformVersion)) {
      problems.push({
        detail: 'Terraform version must be a release version such as 1.9.5',
        pointer: pointer('terraform-version'),
      });
    } else if (!planOnly) {
      problems.push({
        detail: 'Terraform version can only be set on plan-only runs',
        pointer: pointer('terraform-version'),
      });
    }
  }
  if (options.savePlan && planOnly) {
    problems.push({
      detail: 'Save plan cannot be used on a plan-only run: its plan can never be applied',
      pointer: pointer('save-plan'),
    });
  }
  return problems;
}
