import { Controller, Get, Param, Res } from '@nestjs/common';
import { ApiBearerAuth, ApiOperation, ApiResponse, ApiTags } from '@nestjs/swagger';
import type { Response } from 'express';
import { API_V2 } from '../common/api-prefix';
import { CurrentPrincipal } from '../common/auth/current-principal.decorator';
import { Principal } from '../common/auth/principal';
import { ResourceDocument } from '../common/jsonapi/document';
import { ApiErrors } from '../common/jsonapi/openapi';
import { LinkOrigin } from '../storage/link-origin.decorator';
import { PlanOutputService } from './plan-output.service';
import type { PlanJson } from './plan-redaction';
import { RunLinks } from './run-links';
import { RunsPresenter } from './runs.presenter';
import { APPLY_DOC, PLAN_DOC } from './runs.serializer';
import { RunsService } from './runs.service';
import { Endpoint } from '../http/endpoint';

@ApiTags('runs')
@ApiBearerAuth()
@Controller(API_V2)
export class RunPhasesController {
  constructor(
    private readonly runs: RunsService,
    private readonly presenter: RunsPresenter,
    private readonly links: RunLinks,
    private readonly planOutput: PlanOutputService,
  ) {}

  @Get('plans/:id')
  @ApiOperation({ summary: "A run's plan: status, resource counts, log link" })
  @Endpoint({ show: [PLAN_DOC] })
  async plan(
    @CurrentPrincipal() p: Principal,
    @Param('id') id: string,
    @LinkOrigin() origin: string,
  ): Promise<ResourceDocument> {
    const [resource] = await this.presenter.phaseResources(
      [await this.runs.requirePhase(p, id, 'plan')],
      origin,
    );
    return new ResourceDocument(resource);
  }

  @Get('applies/:id')
  @ApiOperation({ summary: "A run's apply: status, resource counts, log link" })
  @Endpoint({ show: [APPLY_DOC] })
  async apply(
    @CurrentPrincipal() p: Principal,
    @Param('id') id: string,
    @LinkOrigin() origin: string,
  ): Promise<ResourceDocument> {
    const [resource] = await this.presenter.phaseResources(
      [await this.runs.requirePhase(p, id, 'apply')],
      origin,
    );
    return new ResourceDocument(resource);
  }

  /**
   * The one route that sets its status by hand: 307 with a Location, or 204 with nothing, which
   * neither a returned document nor @Redirect can say.
   */
  @Get('plans/:id/json-output')
  @ApiOperation({
    summary: "The plan's JSON output: 307 to a signed link valid for five minutes, 204 while unfinished",
    description: 'Needs admin access to the workspace, as the real service asks.',
  })
  @ApiResponse({ status: 307, description: 'Location: the signed link of the JSON' })
  @ApiResponse({ status: 204, description: 'The plan has not finished, or its executor sent no JSON' })
  @ApiErrors(401, 404)
  async jsonOutput(
    @CurrentPrincipal() p: Principal,
    @Param('id') id: string,
    @LinkOrigin() origin: string,
    @Res({ passthrough: true }) res: Response,
  ): Promise<void> {
    const plan = await this.runs.requirePlanOutput(p, id);
    if (plan.status === 'finished' && (await this.links.hasFile(plan.runId, plan.id, 'plan-json'))) {
      res.status(307).setHeader('Location', this.links.phaseDownload(origin, plan.id, 'plan-json'));
    } else {
      res.status(204);
    }
  }

  /** The JSON itself rather than a link to it: the CLI reads it with its token, in one request. */
  @Get('plans/:id/json-output-redacted')
  @ApiOperation({
    summary: "The plan's JSON output with sensitive values redacted; 204 while unfinished",
    description:
      'The `terraform show -json` document of the plan, as `application/json`, with every value the ' +
      'tool marked sensitive (`before_sensitive`, `after_sensitive`, `sensitive_values`, sensitive ' +
      'outputs and variables) replaced by null; the masks stay. The CLI reads it to render a plan ' +
      'when structured run output is on. Needs admin access to the workspace, as the JSON output does.',
  })
  @ApiResponse({
    status: 200,
    description: 'The redacted plan JSON',
    content: { 'application/json': { schema: { type: 'object', additionalProperties: true } } },
  })
  @ApiResponse({ status: 204, description: 'The plan has not finished, or its executor sent no JSON' })
  @ApiErrors(401, 404)
  async jsonOutputRedacted(
    @CurrentPrincipal() p: Principal,
    @Param('id') id: string,
    @Res({ passthrough: true }) res: Response,
  ): Promise<PlanJson | undefined> {
    const json = await this.planOutput.redacted(p, id);
    if (json === undefined) res.status(204);
    return json;
  }
}
