import { Body, Controller, HttpCode, Param, Post, Query, Res } from '@nestjs/common';
import type { Response } from 'express';
import {
  ApiBearerAuth,
  ApiBody,
  ApiHeader,
  ApiOperation,
  ApiQuery,
  ApiResponse,
  ApiTags,
} from '@nestjs/swagger';
import { AgentContext } from './agent-context';
import { CurrentAgent } from './current-agent.decorator';
import { API_V2 } from '../../common/api-prefix';
import { Endpoint } from '../../http/endpoint';
import { badRequest, DomainError } from '../../common/errors/domain-error';
import { validateAttributes } from '../../common/jsonapi/body';
import { schemaOf } from '../../common/jsonapi/dto-schema';
import { ApiErrors } from '../../common/jsonapi/openapi';
import { LinkOrigin } from '../../storage/link-origin.decorator';
import {
  ClaimAnswer,
  FinishJobBody,
  FinishPolicyEvaluationBody,
  HeartbeatAnswer,
  JobPayload,
} from './agent-protocol.types';
import { RunJobsService } from './run-jobs.service';
import { parseClaimWait } from './claim-waiters';
import { JobSignals } from './job-signals.service';
import { JobReport } from '../run-rules';

const PLAN_REPORT = schemaOf(FinishJobBody);
/** One body for both kinds of job: a plan or apply job's report, or a policy evaluation's. */
const REPORT_SCHEMA = {
  type: 'object',
  required: PLAN_REPORT.required,
  properties: { ...PLAN_REPORT.properties, ...schemaOf(FinishPolicyEvaluationBody).properties },
};

/** A finish's `next`: absent or `false` only reports, `true` claims the next job too; null for anything else. */
export function parseFinishNext(raw: unknown): boolean | null {
  if (raw === undefined || raw === 'false') return false;
  return raw === 'true' ? true : null;
}

function asObject(body: unknown): Record<string, unknown> {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    throw badRequest('request body must be a JSON object');
  }
  return body as Record<string, unknown>;
}

/** The job routes of the executor protocol (docs/runs.md): plain JSON, agent tokens only. */
@ApiTags('executor protocol')
@ApiBearerAuth()
@ApiHeader({ name: 'X-Plinth-Agent', description: 'The agent id from registration', required: true })
@Controller(`${API_V2}/agent/jobs`)
export class RunJobsController {
  constructor(
    private readonly jobs: RunJobsService,
    private readonly signals: JobSignals,
  ) {}

  @Post('claim')
  @Endpoint({ auth: 'agent', effect: 'leaves-access-alone', unchangedWhen: [204] })
  @HttpCode(200)
  @ApiOperation({
    summary: "Claim the next job of the agent's pool: 200 with the job, 204 when there is none",
    description:
      'A pool serves the jobs queued for it, and, when organization-scoped, the jobs of workspaces of ' +
      'its organization that name no pool. Each job is handed out exactly once. With `wait`, a claim ' +
      'that finds no job waits up to that many seconds and answers as soon as one is queued (a long ' +
      'poll); 204 when none came, or at once when the server stops.',
  })
  @ApiQuery({
    name: 'wait',
    required: false,
    description:
      'Seconds to wait for a job when there is none, 0 to CLAIM_WAIT_MAX_SECONDS (default 30, given at ' +
      'registration as claim-wait-max-seconds); absent: answer at once',
    schema: { type: 'integer', minimum: 0 },
  })
  @ApiResponse({ status: 200, schema: schemaOf(ClaimAnswer) })
  @ApiResponse({ status: 204, description: 'No work' })
  @ApiErrors(401, 422)
  async claim(
    @CurrentAgent() agent: AgentContext,
    @LinkOrigin() origin: string,
    @Query('wait') rawWait: unknown,
    @Res({ passthrough: true }) res: Response,
  ): Promise<{ job: JobPayload } | undefined> {
    const max = this.signals.maxWaitSeconds;
    const wait = parseClaimWait(rawWait, max);
    if (wait === null) {
      throw new DomainError('invalid', [
        { detail: `wait must be a whole number of seconds from 0 to ${max}`, parameter: 'wait' },
      ]);
    }
    // The executor hung up: its wait ends, and no job is claimed for it from then on.
    const gone = new AbortController();
    if (wait > 0) res.once('close', () => gone.abort());
    const job = await this.jobs.claim(agent, origin, wait * 1000, gone.signal);
    // 200 with a job or 204 without: the one status a returned value cannot choose.
    if (!job) res.status(204);
    return job ? { job } : undefined;
  }

  @Post(':id/heartbeat')
  @Endpoint({ auth: 'agent', effect: 'leaves-access-alone', unchangedWhen: [200] })
  @HttpCode(200)
  @ApiOperation({
    summary: 'A running job is alive; the answer says whether to go on or stop (the run was canceled)',
    description:
      "404 when the job is not this agent's. Without a heartbeat for EXECUTOR_TIMEOUT seconds the job and its run are errored.",
  })
  @ApiResponse({ status: 200, schema: schemaOf(HeartbeatAnswer) })
  @ApiErrors(401, 404)
  async heartbeat(@CurrentAgent() agent: AgentContext, @Param('id') id: string): Promise<HeartbeatAnswer> {
    return { status: await this.jobs.heartbeat(agent, id) };
  }

  @Post(':id/finish')
  @Endpoint({ auth: 'agent', effect: 'leaves-access-alone' })
  @HttpCode(204)
  @ApiOperation({
    summary: 'Report how the job ended; the run moves on in the same transaction',
    description:
      'Idempotent: the same report again answers 204; a different one, or a report on a job that timed ' +
      "out or was force-canceled, 409. 404 when the job is not this agent's. Policy-evaluation jobs report " +
      '`results`, one per policy (`policy`, `status` passed|failed, `output`, and `enforcement-level` for ' +
      'versioned sets); a report that does not name exactly the evaluated policies is a 422. With ' +
      "`next=true`, once the report is recorded the agent's next job is claimed as by a claim without " +
      '`wait`, in the same request: 200 with it, 204 when there is none. A refused report claims nothing.',
  })
  @ApiQuery({
    name: 'next',
    required: false,
    description:
      "`true`: claim the agent's next job once the report is recorded (200 with it, 204 without); " +
      '`false` or absent: only report (204)',
    schema: { type: 'string', enum: ['true', 'false'] },
  })
  @ApiBody({ schema: REPORT_SCHEMA })
  @ApiResponse({
    status: 200,
    description: 'Recorded; the next job (next=true)',
    schema: schemaOf(ClaimAnswer),
  })
  @ApiResponse({ status: 204, description: 'Recorded (and, with next=true, no job to hand out)' })
  @ApiErrors(400, 401, 404, 409, 422)
  async finish(
    @CurrentAgent() agent: AgentContext,
    @LinkOrigin() origin: string,
    @Param('id') id: string,
    @Query('next') rawNext: unknown,
    @Body() body: unknown,
    @Res({ passthrough: true }) res: Response,
  ): Promise<{ job: JobPayload } | undefined> {
    // Checked before anything is recorded: a refused request leaves the job as it was.
    const next = parseFinishNext(rawNext);
    if (next === null) {
      throw new DomainError('invalid', [{ detail: 'next must be true or false', parameter: 'next' }]);
    }
    const job = await this.report(agent, id, body, next ? origin : null);
    if (job) res.status(200);
    return job ? { job } : undefined;
  }

  /**
   * Records the report of the job `id`, as its kind takes it; with an `origin` (next=true), then
   * claims the agent's next job and answers with it (null: none). A plan or apply report takes it
   * in the report's own transaction.
   */
  private async report(
    agent: AgentContext,
    id: string,
    body: unknown,
    origin: string | null,
  ): Promise<JobPayload | null> {
    const plain = asObject(body);
    const job = await this.jobs.ownJob(agent, id);
    if (job.kind === 'policy-evaluation') {
      const parsed = validateAttributes(FinishPolicyEvaluationBody, plain);
      await this.jobs.finishEvaluation(agent, job, {
        status: parsed.status,
        errorMessage: parsed['error-message'] ?? null,
        results: parsed.results ?? [],
      });
      return origin === null ? null : this.jobs.claim(agent, origin, 0);
    }
    const parsed = validateAttributes(FinishJobBody, plain);
    const report: JobReport = {
      status: parsed.status,
      errorMessage: parsed['error-message'] ?? null,
      hasChanges: parsed['has-changes'] ?? false,
      resourceAdditions: parsed['resource-additions'] ?? 0,
      resourceChanges: parsed['resource-changes'] ?? 0,
      resourceDestructions: parsed['resource-destructions'] ?? 0,
      resourceImports: parsed['resource-imports'] ?? 0,
    };
    if (origin === null) {
      await this.jobs.finish(agent, job, report);
      return null;
    }
    return this.jobs.finishAndClaim(agent, job, report, origin);
  }
}
