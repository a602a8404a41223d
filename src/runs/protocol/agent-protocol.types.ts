import {
  ArrayMaxSize,
  IsArray,
  IsBoolean,
  IsIn,
  IsInt,
  IsNotEmpty,
  IsString,
  MaxLength,
  Min,
} from 'class-validator';
import { Describe, Nested } from '../../common/jsonapi/dto-schema';
import { Nullable, Omittable } from '../../common/jsonapi/presence';

/**
 * The wire shapes of the executor protocol (docs/runs.md, "Executor protocol"), declared once:
 * each class is the TypeScript type the server and the reference executor share, its rules
 * validate what the server receives, and `schemaOf` reads them into the OpenAPI document.
 */

const tooLong = (max: number) => ({
  message: `is too long (maximum is ${max} characters)`,
});

/** `POST /api/v2/agent/register`'s body. */
export class RegisterAgentBody {
  @Describe(undefined, 'host-1')
  @IsString()
  @IsNotEmpty({ message: "can't be blank" })
  @MaxLength(255, tooLong(255))
  name: string;
}

/** What `POST /api/v2/agent/register` answers. */
export class Registration {
  @Describe(undefined, 'agent-3yVQZvHzf5j3WRJ1')
  @IsString()
  'agent-id': string;

  @Describe(undefined, 'apool-3yVQZvHzf5j3WRJ1')
  @IsString()
  'pool-id': string;

  @IsString()
  organization: string;

  @IsInt()
  'poll-interval-seconds': number;

  @IsInt()
  'heartbeat-interval-seconds': number;

  @Describe('The longest `wait` a claim may ask for (CLAIM_WAIT_MAX_SECONDS); 0: claims never wait')
  @IsInt()
  'claim-wait-max-seconds': number;
}

/** Signed links of a claimed job. */
export class JobLinks {
  @IsString()
  configuration: string;

  @Omittable()
  @IsString()
  logs?: string;

  @Omittable()
  @IsString()
  'plan-json'?: string;

  @Omittable()
  @IsString()
  'plan-file'?: string;

  @Omittable()
  @IsString()
  'state-upload'?: string;

  @Nullable()
  @IsString()
  state?: string | null;
}

const LINKS =
  'configuration: signed GET of the tar.gz; logs: signed PUT that appends a chunk at `?offset=N` ' +
  '(plan and apply jobs; bytes the log has are acknowledged, a gap is a 409); plan-json: signed PUT ' +
  '(plan jobs) or GET (policy evaluations); plan-file: signed PUT (plan jobs) or GET (apply jobs); ' +
  'state: signed GET of the current state, null while the workspace has none (plan and apply jobs); ' +
  'state-upload: signed PUT of the state the apply leaves, whether it succeeded or not (apply jobs; ' +
  'the same bytes again answer 200 with nothing new)';

/** One policy of an evaluation. */
export class EvaluationPolicy {
  @IsString()
  name: string;

  @IsString()
  'enforcement-level': string;

  @Describe('The framework_b query; null for framework_a')
  @Nullable()
  @IsString()
  query: string | null;

  @Describe('Signed GET of the code; null when none was uploaded')
  @Nullable()
  @IsString()
  code: string | null;
}

/** One policy set parameter an evaluation receives. */
export class EvaluationParameter {
  @IsString()
  key: string;

  @IsString()
  value: string;

  @IsBoolean()
  sensitive: boolean;
}

/**
 * What a policy-evaluation job evaluates: the snapshot of one policy set taken when the check
 * started. A versioned set comes as its version's archive (`bundle`) and its own configuration
 * names the policies; otherwise as its policies, one code file each.
 */
export class EvaluationSpec {
  @Describe(undefined, 'poleval-3yVQZvHzf5j3WRJ1')
  @IsString()
  id: string;

  @IsString()
  'policy-set-id': string;

  @IsString()
  'policy-set-name': string;

  @IsIn(['framework_a', 'framework_b'])
  'policy-kind': 'framework_a' | 'framework_b';

  @IsString()
  'policy-tool-version': string;

  @Describe("Signed GET of a versioned set's tar.gz; null for sets of individual policies")
  @Nullable()
  @IsString()
  bundle: string | null;

  @IsArray()
  @Nested(() => EvaluationPolicy, { array: true })
  policies: EvaluationPolicy[];

  @Describe(
    "The set's parameters, values in clear as they are when the job is claimed; mask the sensitive ones " +
      'in what is sent back',
  )
  @IsArray()
  @Nested(() => EvaluationParameter, { array: true })
  parameters: EvaluationParameter[];
}

/** One variable a plan or apply job receives. */
export class JobVariable {
  @IsString()
  key: string;

  @IsString()
  value: string;

  @Describe('terraform: an input variable (written to a tfvars file); env: exported')
  @IsIn(['terraform', 'env'])
  category: 'terraform' | 'env';

  @Describe('The value is an HCL expression, written as it is; otherwise a string')
  @IsBoolean()
  hcl: boolean;

  @Describe('Mask the value in every log uploaded')
  @IsBoolean()
  sensitive: boolean;
}

/** A claimed job as `POST /api/v2/agent/jobs/claim` hands it out. */
export class JobPayload {
  @Describe(undefined, 'job-3yVQZvHzf5j3WRJ1')
  @IsString()
  id: string;

  @IsIn(['plan', 'apply', 'policy-evaluation'])
  kind: 'plan' | 'apply' | 'policy-evaluation';

  @IsString()
  'run-id': string;

  @IsString()
  'workspace-id': string;

  @IsString()
  'workspace-name': string;

  @IsString()
  organization: string;

  @IsBoolean()
  'is-destroy': boolean;

  @IsBoolean()
  'plan-only': boolean;

  @Describe('false: plan with `-refresh=false`')
  @IsBoolean()
  refresh: boolean;

  @Describe('true: plan with `-refresh-only`')
  @IsBoolean()
  'refresh-only': boolean;

  @Describe('Plan with one `-target=ADDR` per address')
  @IsArray()
  @IsString({ each: true })
  'target-addrs': string[];

  @Describe('Plan with one `-replace=ADDR` per address')
  @IsArray()
  @IsString({ each: true })
  'replace-addrs': string[];

  @Describe('A plan without changes may still be applied')
  @IsBoolean()
  'allow-empty-apply': boolean;

  @Describe('The plan may generate configuration for import blocks')
  @IsBoolean()
  'allow-config-generation': boolean;

  @Describe('The plan is saved; an apply follows only if confirmed')
  @IsBoolean()
  'save-plan': boolean;

  @Describe("Plan-only runs: the tool version asked for; null: the executor's own")
  @Nullable()
  @IsString()
  'terraform-version': string | null;

  @IsInt()
  'heartbeat-interval-seconds': number;

  @Describe(LINKS)
  @Nested(() => JobLinks)
  links: JobLinks;

  @Describe(
    "Plan and apply jobs only: the run's variables after precedence, values in clear (sensitive ones " +
      'too: mask them in logs), fixed when the plan was claimed; the apply receives the same',
  )
  @Omittable()
  @IsArray()
  @Nested(() => JobVariable, { array: true })
  variables?: JobVariable[];

  @Describe('Policy-evaluation jobs only: the snapshot of one policy set taken when the check started')
  @Omittable()
  @Nested(() => EvaluationSpec)
  'policy-evaluation'?: EvaluationSpec;
}

/** The answer of a claim that got a job (a claim without one answers 204). */
export class ClaimAnswer {
  @Nested(() => JobPayload)
  job: JobPayload;
}

/** What a heartbeat answers: go on, or stop (the run was canceled, or the job ended without the executor). */
export class HeartbeatAnswer {
  @IsIn(['running', 'canceled'])
  status: 'running' | 'canceled';
}

/** How much of an engine's output a policy result carries (a TEXT column holds it on every dialect). */
export const MAX_POLICY_OUTPUT_CHARS = 16 * 1024;

/** The report (`POST /api/v2/agent/jobs/:id/finish`) of a plan or apply job. */
export class FinishJobBody {
  @IsIn(['finished', 'errored'], { message: 'must be finished or errored' })
  status: 'finished' | 'errored';

  @Omittable()
  @IsString()
  @MaxLength(10_000, tooLong(10_000))
  'error-message'?: string;

  @Omittable()
  @IsBoolean()
  'has-changes'?: boolean;

  @Omittable()
  @IsInt()
  @Min(0)
  'resource-additions'?: number;

  @Omittable()
  @IsInt()
  @Min(0)
  'resource-changes'?: number;

  @Omittable()
  @IsInt()
  @Min(0)
  'resource-destructions'?: number;

  @Omittable()
  @IsInt()
  @Min(0)
  'resource-imports'?: number;
}

/** One policy's result in a policy-evaluation job's report. */
export class PolicyResult {
  /** The policy's name, as the job named it (or as the set's own configuration names it, for versioned sets). */
  @IsString()
  @MaxLength(128, tooLong(128))
  policy: string;

  @IsIn(['passed', 'failed'], { message: 'must be passed or failed' })
  status: 'passed' | 'failed';

  @Describe('Versioned sets only: their own configuration sets the levels')
  @Omittable()
  @IsString()
  @MaxLength(32, tooLong(32))
  'enforcement-level'?: string;

  @Omittable()
  @IsString()
  @MaxLength(MAX_POLICY_OUTPUT_CHARS, tooLong(MAX_POLICY_OUTPUT_CHARS))
  output?: string;
}

/** The report of a policy-evaluation job: how the engine ended and one result per policy. */
export class FinishPolicyEvaluationBody {
  @IsIn(['finished', 'errored'], { message: 'must be finished or errored' })
  status: 'finished' | 'errored';

  @Omittable()
  @IsString()
  @MaxLength(10_000, tooLong(10_000))
  'error-message'?: string;

  @Describe('Policy-evaluation jobs only')
  @Omittable()
  @IsArray({ message: 'must be an array' })
  @ArrayMaxSize(500, { message: 'has too many items (maximum is 500)' })
  @Nested(() => PolicyResult, { array: true })
  results?: PolicyResult[];
}
