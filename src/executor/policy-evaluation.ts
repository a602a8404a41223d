import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { extract } from 'tar';
import {
  EvaluationPolicy,
  EvaluationSpec,
  MAX_POLICY_OUTPUT_CHARS,
  PolicyResult,
} from '../runs/protocol/agent-protocol.types';
import { maskSecrets } from './job-variables';

/** The engine command per policy kind (see options.ts for the defaults). */
export type PolicyCommands = Record<EvaluationSpec['policy-kind'], string>;

/** What evaluating needs from the executor: fetch a signed link, run a command while heartbeating. */
export interface EvaluationContext {
  download(url: string, file: string): Promise<void>;
  run(
    command: string,
    where: { cwd: string; env: NodeJS.ProcessEnv },
  ): Promise<{ code: number | null; output: string }>;
}

/** The evaluation could not be run (engine missing, bad results file): the report says errored. */
export class EvaluationError extends Error {}

const EXTENSIONS: Record<EvaluationSpec['policy-kind'], string> = {
  framework_a: 'sentinel',
  framework_b: 'rego',
};

/** Output past the cap keeps its end, where engines print their verdicts. */
export function clip(output: string): string {
  if (output.length <= MAX_POLICY_OUTPUT_CHARS) return output;
  const marker = '…(output truncated)\n';
  return marker + output.slice(output.length - (MAX_POLICY_OUTPUT_CHARS - marker.length));
}

/** The values of the set's sensitive parameters, which no report may carry. */
export function parameterSecrets(spec: Pick<EvaluationSpec, 'parameters'>): string[] {
  return (spec.parameters ?? []).filter((p) => p.sensitive && p.value !== '').map((p) => p.value);
}

/**
 * Runs the operator's engine on one policy set's snapshot. The set's parameters are in the JSON
 * object (`{"key": "value"}`) at $PLINTH_POLICY_PARAMETERS. Sets of individual policies: the
 * command runs once per policy; exit 0 means passed, 1 failed, anything else errors the
 * evaluation. Versioned sets: the command runs once on the unpacked bundle and writes its results
 * (`[{"policy", "status", "enforcement-level", "output"}]`) to $PLINTH_POLICY_RESULTS.
 */
export async function evaluatePolicies(
  spec: EvaluationSpec,
  planJson: string,
  dir: string,
  commands: PolicyCommands,
  baseEnv: NodeJS.ProcessEnv,
  ctx: EvaluationContext,
): Promise<PolicyResult[]> {
  const policyDir = join(dir, 'policies');
  await mkdir(policyDir);
  const parametersFile = join(dir, 'parameters.json');
  await writeFile(
    parametersFile,
    JSON.stringify(Object.fromEntries((spec.parameters ?? []).map((p) => [p.key, p.value]))),
    { mode: 0o600 },
  );
  const env: NodeJS.ProcessEnv = {
    ...baseEnv,
    PLINTH_POLICY_PARAMETERS: parametersFile,
    PLINTH_PLAN_JSON: planJson,
    PLINTH_POLICY_DIR: policyDir,
    PLINTH_POLICY_SET_NAME: spec['policy-set-name'],
    PLINTH_POLICY_KIND: spec['policy-kind'],
    PLINTH_POLICY_TOOL_VERSION: spec['policy-tool-version'],
  };
  const command = commands[spec['policy-kind']];
  if (spec.bundle) {
    const archive = join(dir, 'bundle.tar.gz');
    await ctx.download(spec.bundle, archive);
    await extract({ file: archive, cwd: policyDir });
    const resultsFile = join(dir, 'results.json');
    const { code, output } = await ctx.run(command, {
      cwd: policyDir,
      env: { ...env, PLINTH_POLICY_RESULTS: resultsFile },
    });
    if (code !== 0 && code !== 1) throw new EvaluationError(engineFailed(spec, null, code, output));
    // The engine wrote these itself: they did not pass through the executor's output mask.
    const secrets = parameterSecrets(spec);
    return (await readResults(resultsFile)).map((r) =>
      r.output === undefined ? r : { ...r, output: maskSecrets(r.output, secrets) },
    );
  }
  const results: PolicyResult[] = [];
  for (const policy of spec.policies) {
    results.push(await evaluateOne(spec, policy, policyDir, command, env, ctx));
  }
  return results;
}

async function evaluateOne(
  spec: EvaluationSpec,
  policy: EvaluationPolicy,
  policyDir: string,
  command: string,
  env: NodeJS.ProcessEnv,
  ctx: EvaluationContext,
): Promise<PolicyResult> {
  if (!policy.code) {
    return { policy: policy.name, status: 'failed', output: 'no code was uploaded for this policy\n' };
  }
  // Policy names are letters, digits, - and _ on the server; the file name does not rely on it.
  const file = join(
    policyDir,
    `${policy.name.replace(/[^A-Za-z0-9_-]/g, '_')}.${EXTENSIONS[spec['policy-kind']]}`,
  );
  await ctx.download(policy.code, file);
  const { code, output } = await ctx.run(command, {
    cwd: policyDir,
    env: {
      ...env,
      PLINTH_POLICY_NAME: policy.name,
      PLINTH_POLICY_FILE: file,
      PLINTH_POLICY_QUERY: policy.query ?? '',
      PLINTH_ENFORCEMENT_LEVEL: policy['enforcement-level'],
    },
  });
  if (code !== 0 && code !== 1) throw new EvaluationError(engineFailed(spec, policy.name, code, output));
  return { policy: policy.name, status: code === 0 ? 'passed' : 'failed', output: clip(output) };
}

function engineFailed(
  spec: EvaluationSpec,
  policy: string | null,
  code: number | null,
  output: string,
): string {
  const what = policy ? `policy ${policy}` : `policy set ${spec['policy-set-name']}`;
  const how = code === null ? 'was stopped' : `exited with ${code}`;
  const tail = output.trim().split('\n').slice(-5).join('\n');
  return `the ${spec['policy-kind']} engine ${how} on ${what}${tail ? `: ${tail}` : ''}`;
}

async function readResults(file: string): Promise<PolicyResult[]> {
  let parsed: unknown;
  try {
    parsed = JSON.parse(await readFile(file, 'utf8'));
  } catch {
    throw new EvaluationError('the engine command wrote no JSON results at $PLINTH_POLICY_RESULTS');
  }
  if (!Array.isArray(parsed)) throw new EvaluationError('$PLINTH_POLICY_RESULTS must hold a JSON array');
  return parsed.map((item: unknown, i) => {
    const r = item as Record<string, unknown>;
    if (typeof r?.policy !== 'string' || (r.status !== 'passed' && r.status !== 'failed')) {
      throw new EvaluationError(`result ${i} needs a policy name and a status of passed or failed`);
    }
    return {
      policy: r.policy,
      status: r.status,
      ...(typeof r['enforcement-level'] === 'string' ? { 'enforcement-level': r['enforcement-level'] } : {}),
      ...(typeof r.output === 'string' ? { output: clip(r.output) } : {}),
    };
  });
}

/** Fetches the plan JSON where the engine reads it. */
export async function fetchPlanJson(
  ctx: EvaluationContext,
  url: string | undefined,
  file: string,
): Promise<void> {
  if (!url) throw new EvaluationError('the policy evaluation job carries no plan-json link');
  await ctx.download(url, file);
  // An empty file means the plan sent none: engines would fail on it with less clear words.
  if (!(await readFile(file, 'utf8')).trim()) throw new EvaluationError('the plan has no JSON to evaluate');
}
