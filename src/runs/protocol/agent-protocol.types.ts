/**
 * The wire shapes of the executor job protocol (docs/runs.md, "Executor protocol"), declared once:
 * the server's routes answer them and the reference executor reads them.
 */

/** What `POST /api/v2/agent/register` answers. */
export interface Registration {
  'agent-id': string;
  'pool-id': string;
  organization: string;
  'poll-interval-seconds': number;
  'heartbeat-interval-seconds': number;
  /** The longest `wait` (seconds) `POST /api/v2/agent/jobs/claim` accepts; 0: claims never wait. */
  'claim-wait-max-seconds': number;
}

/**
 * Signed links of a claimed job: plan jobs upload the plan JSON and file, apply jobs download the
 * file, policy evaluations download the plan JSON (and report their output with the results).
 * Plan and apply jobs get the current state; apply jobs hand the new state back.
 */
export interface JobLinks {
  configuration: string;
  /** Plan and apply jobs only: PUT appends a chunk at `?offset=N` (the byte it starts at). */
  logs?: string;
  'plan-json'?: string;
  'plan-file'?: string;
  /**
   * Plan and apply jobs: signed GET of the workspace's current state (`terraform.tfstate`), or
   * null while it has none.
   */
  state?: string | null;
  /** Apply jobs: signed PUT of the state the apply leaves, applied or not (a new state version). */
  'state-upload'?: string;
}

/** One policy of an evaluation, with a signed GET of its code (null when none was uploaded). */
export interface EvaluationPolicy {
  name: string;
  'enforcement-level': string;
  /** The framework_b query; null for framework_a. */
  query: string | null;
  code: string | null;
}

/**
 * What a policy-evaluation job evaluates: the snapshot of one policy set taken when the check
 * started. A versioned set comes as its version's archive (`bundle`) and its own configuration
 * names the policies; otherwise as its policies, one code file each.
 */
export interface EvaluationSpec {
  id: string;
  'policy-set-id': string;
  'policy-set-name': string;
  'policy-kind': 'framework_a' | 'framework_b';
  'policy-tool-version': string;
  /** Signed GET of the version's tar.gz; null for sets of individual policies. */
  bundle: string | null;
  policies: EvaluationPolicy[];
  /**
   * The set's parameters (`/policy-sets/:id/parameters`), values in clear as they are when the job
   * is claimed; the executor hands them to the engine and masks the sensitive ones in what it sends.
   */
  parameters: EvaluationParameter[];
}

/** One policy set parameter an evaluation receives. */
export interface EvaluationParameter {
  key: string;
  value: string;
  sensitive: boolean;
}

/** A claimed job as `POST /api/v2/agent/jobs/claim` hands it out. */
/** One variable a plan or apply job receives. */
export interface JobVariable {
  key: string;
  value: string;
  /** `terraform`: an input variable (the executor writes it to a tfvars file); `env`: exported. */
  category: 'terraform' | 'env';
  /** The value is an HCL expression, written as it is; otherwise a string. */
  hcl: boolean;
  /** The executor masks the value in every log it uploads. */
  sensitive: boolean;
}

export interface JobPayload {
  id: string;
  kind: 'plan' | 'apply' | 'policy-evaluation';
  'run-id': string;
  'workspace-id': string;
  'workspace-name': string;
  organization: string;
  'is-destroy': boolean;
  'plan-only': boolean;
  /** False: plan without refreshing the state first (`-refresh=false`). */
  refresh: boolean;
  /** Plan only the refresh of the state (`-refresh-only`). */
  'refresh-only': boolean;
  /** Resource addresses the plan is limited to (`-target=ADDR` each). */
  'target-addrs': string[];
  /** Resource addresses the plan replaces (`-replace=ADDR` each). */
  'replace-addrs': string[];
  /** A plan without changes may still be applied. */
  'allow-empty-apply': boolean;
  /** The plan may generate configuration for import blocks. */
  'allow-config-generation': boolean;
  /** A saved plan: applied later, if ever, by someone's confirmation. */
  'save-plan': boolean;
  /** The tool version a plan-only run asks for; null: the executor's own. */
  'terraform-version': string | null;
  'heartbeat-interval-seconds': number;
  links: JobLinks;
  /**
   * Plan and apply jobs only: the run's variables, values in clear, fixed when its plan was claimed
   * (the apply receives the same).
   */
  variables?: JobVariable[];
  /** Policy-evaluation jobs only. */
  'policy-evaluation'?: EvaluationSpec;
}

/** How much of an engine's output a policy result carries (characters). */
export const MAX_POLICY_OUTPUT_CHARS = 16 * 1024;

/** One policy's result in a policy-evaluation job's finish body. */
export interface PolicyResult {
  policy: string;
  status: 'passed' | 'failed';
  /** Versioned sets only: their own configuration sets the levels. */
  'enforcement-level'?: string;
  output?: string;
}
