import type { PolicyCommands } from './policy-evaluation';

/** Plinth's default EXECUTOR_TIMEOUT: how long a job may go without a heartbeat before it is errored. */
export const DEFAULT_REPORT_TIMEOUT_SECONDS = 120;

/** How the reference executor is told what to run: flags first, then environment variables. */
export interface ExecutorOptions {
  /** Plinth's base URL, e.g. `https://plinth.example.com`. */
  url: string;
  token: string;
  name: string;
  commands: JobCommands;
  /** The policy engine per kind, run for policy-evaluation jobs. */
  policyCommands: PolicyCommands;
  /** Where each job's scratch directory is made. */
  workDir: string;
  /** Stop after this many jobs (0: run until stopped); for tests and one-shot CI runners. */
  maxJobs: number;
  /**
   * How long after Plinth last heard of a job its files and report are tried again while Plinth
   * is away: its EXECUTOR_TIMEOUT (default 120 s).
   */
  reportTimeoutSeconds?: number;
  /** The tool's version, for the banner that starts each apply log (`Terraform v1.9.5`). */
  toolVersion?: string;
}

/**
 * Shell commands run in the unpacked configuration. They find the paths they need in the
 * environment: PLINTH_PLAN_FILE (the saved plan), PLINTH_PLAN_JSON (where `show` writes the
 * plan's JSON), PLINTH_IS_DESTROY (`true`/`false`), PLINTH_TERRAFORM_VERSION (a plan-only run's
 * `terraform-version`, else empty), PLINTH_RUN_ID, PLINTH_WORKSPACE_NAME, PLINTH_ORGANIZATION.
 * The plan command's positional parameters (`"$@"`) are the run's planning flags.
 */
export interface JobCommands {
  plan: string;
  show: string;
  apply: string;
}

/**
 * The engines' own CLIs, one command per policy (see policy-evaluation.ts): exit 0 passes, 1
 * fails. framework_b: the query's rule set must be empty (`--fail-defined` on each element).
 */
export const DEFAULT_POLICY_COMMANDS: PolicyCommands = {
  framework_a: 'sentinel apply "$PLINTH_POLICY_FILE"',
  framework_b:
    'opa eval --fail-defined --format pretty --data "$PLINTH_POLICY_FILE" --input "$PLINTH_PLAN_JSON" "$PLINTH_POLICY_QUERY[_]"',
};

/**
 * The plan command passes the run's planning flags on with `"$@"` (-destroy included); a plan
 * command that does not, given a run with flags, errors the job rather than plan something else.
 */
export const DEFAULT_COMMANDS: JobCommands = {
  plan: 'terraform init -input=false && terraform plan -input=false -out="$PLINTH_PLAN_FILE" "$@"',
  show: 'terraform show -json "$PLINTH_PLAN_FILE" > "$PLINTH_PLAN_JSON"',
  apply: 'terraform init -input=false && terraform apply -input=false "$PLINTH_PLAN_FILE"',
};

export const USAGE = `usage: node dist/executor/main.js --url URL [--token-file FILE] [--name NAME]
       [--plan-command CMD] [--show-command CMD] [--apply-command CMD] [--work-dir DIR] [--max-jobs N]
       [--report-timeout SECONDS] [--framework-a-command CMD] [--framework-b-command CMD]
       [--tool-version VERSION]
The agent token: PLINTH_AGENT_TOKEN in the environment, or --token-file FILE (PLINTH_AGENT_TOKEN_FILE)
naming a file that holds it. --token TOKEN works too but shows the token to anyone who lists processes.
Environment: PLINTH_URL, PLINTH_AGENT_TOKEN, PLINTH_AGENT_TOKEN_FILE, PLINTH_AGENT_NAME,
PLINTH_PLAN_COMMAND, PLINTH_SHOW_COMMAND, PLINTH_APPLY_COMMAND, PLINTH_WORK_DIR, PLINTH_MAX_JOBS,
PLINTH_REPORT_TIMEOUT, PLINTH_FRAMEWORK_A_COMMAND, PLINTH_FRAMEWORK_B_COMMAND, PLINTH_TOOL_VERSION.
The plan command receives the run's planning flags (-target=…, -replace=…, -destroy, -refresh-only,
-refresh=false) as its positional parameters: pass them on with "$@".
From a source checkout: npm run agent -- --url URL ….`;

export class OptionsError extends Error {}

const FLAGS: Record<string, string> = {
  '--url': 'PLINTH_URL',
  '--token': 'PLINTH_AGENT_TOKEN',
  '--token-file': 'PLINTH_AGENT_TOKEN_FILE',
  '--name': 'PLINTH_AGENT_NAME',
  '--plan-command': 'PLINTH_PLAN_COMMAND',
  '--show-command': 'PLINTH_SHOW_COMMAND',
  '--apply-command': 'PLINTH_APPLY_COMMAND',
  '--work-dir': 'PLINTH_WORK_DIR',
  '--max-jobs': 'PLINTH_MAX_JOBS',
  '--report-timeout': 'PLINTH_REPORT_TIMEOUT',
  '--framework-a-command': 'PLINTH_FRAMEWORK_A_COMMAND',
  '--framework-b-command': 'PLINTH_FRAMEWORK_B_COMMAND',
  '--tool-version': 'PLINTH_TOOL_VERSION',
};

/** What `parseOptions` needs from the machine, passed in so that it stays a pure function in tests. */
export interface OptionDefaults {
  hostname: string;
  tmpdir: string;
  readFile(path: string): string;
}

export interface ParsedOptions {
  options: ExecutorOptions;
  /** Said on stderr before the executor starts. */
  warnings: string[];
}

/**
 * Reads `--flag value` and `--flag=value`; a flag wins over its environment variable. The token
 * comes from `--token`, `--token-file`, PLINTH_AGENT_TOKEN or PLINTH_AGENT_TOKEN_FILE, in that order.
 */
export function parseOptions(
  argv: readonly string[],
  env: Record<string, string | undefined>,
  defaults: OptionDefaults,
): ParsedOptions {
  const values: Record<string, string | undefined> = {};
  for (const name of Object.values(FLAGS)) values[name] = env[name] || undefined;
  const given = new Set<string>();
  for (let i = 0; i < argv.length; i++) {
    const [flag, inline] = argv[i].split(/=(.*)/s, 2);
    const name = FLAGS[flag];
    if (!name) throw new OptionsError(`unknown argument ${argv[i]}`);
    const value = inline ?? argv[++i];
    if (value === undefined) throw new OptionsError(`${flag} needs a value`);
    values[name] = value;
    given.add(flag);
  }
  const url = values.PLINTH_URL;
  if (!url) throw new OptionsError('--url (or PLINTH_URL) is required');
  const warnings: string[] = [];
  if (given.has('--token') && given.has('--token-file')) {
    throw new OptionsError('give the agent token once: --token or --token-file, not both');
  }
  if (given.has('--token')) {
    warnings.push(
      'warning: --token shows the agent token to anyone who can list processes on this host; ' +
        'use PLINTH_AGENT_TOKEN or --token-file instead',
    );
  }
  const tokenFile =
    given.has('--token-file') || (!given.has('--token') && !env.PLINTH_AGENT_TOKEN)
      ? values.PLINTH_AGENT_TOKEN_FILE
      : undefined;
  const token = tokenFile ? readToken(tokenFile, defaults) : values.PLINTH_AGENT_TOKEN;
  if (!token) {
    throw new OptionsError('the agent token is required: PLINTH_AGENT_TOKEN, --token-file or --token');
  }
  try {
    if (!/^https?:$/.test(new URL(url).protocol)) throw new Error();
  } catch {
    throw new OptionsError(`--url must be an http(s) URL, got ${url}`);
  }
  const maxJobs = values.PLINTH_MAX_JOBS ?? '0';
  if (!/^\d+$/.test(maxJobs)) throw new OptionsError(`--max-jobs must be a whole number, got ${maxJobs}`);
  const reportTimeout = values.PLINTH_REPORT_TIMEOUT ?? String(DEFAULT_REPORT_TIMEOUT_SECONDS);
  if (!/^[1-9]\d*$/.test(reportTimeout)) {
    throw new OptionsError(`--report-timeout must be a positive number of seconds, got ${reportTimeout}`);
  }
  const options: ExecutorOptions = {
    url: url.replace(/\/+$/, ''),
    token,
    name: values.PLINTH_AGENT_NAME ?? defaults.hostname,
    commands: {
      plan: values.PLINTH_PLAN_COMMAND ?? DEFAULT_COMMANDS.plan,
      show: values.PLINTH_SHOW_COMMAND ?? DEFAULT_COMMANDS.show,
      apply: values.PLINTH_APPLY_COMMAND ?? DEFAULT_COMMANDS.apply,
    },
    policyCommands: {
      framework_a: values.PLINTH_FRAMEWORK_A_COMMAND ?? DEFAULT_POLICY_COMMANDS.framework_a,
      framework_b: values.PLINTH_FRAMEWORK_B_COMMAND ?? DEFAULT_POLICY_COMMANDS.framework_b,
    },
    workDir: values.PLINTH_WORK_DIR ?? defaults.tmpdir,
    maxJobs: Number(maxJobs),
    reportTimeoutSeconds: Number(reportTimeout),
    ...(values.PLINTH_TOOL_VERSION ? { toolVersion: values.PLINTH_TOOL_VERSION } : {}),
  };
  return { options, warnings };
}

/** The token file's content without surrounding whitespace (files usually end in a newline). */
function readToken(path: string, defaults: OptionDefaults): string {
  let content: string;
  try {
    content = defaults.readFile(path);
  } catch (err) {
    throw new OptionsError(
      `cannot read the token file ${path}: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}`,
    );
  }
  const token = content.trim();
  if (!token) throw new OptionsError(`the token file ${path} is empty`);
  return token;
}
