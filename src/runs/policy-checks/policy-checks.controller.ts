import { Controller, Get, HttpCode, Param, Post, StreamableFile } from '@nestjs/common';
import { ApiBearerAuth, ApiOperation, ApiProduces, ApiResponse, ApiTags } from '@nestjs/swagger';
import { API_V2 } from '../../common/api-prefix';
import { CurrentPrincipal } from '../../common/auth/current-principal.decorator';
import { Principal } from '../../common/auth/principal';
import { CollectionDocument, ResourceDocument } from '../../common/jsonapi/document';
import { ApiErrors, resourceSchema } from '../../common/jsonapi/openapi';
import { PageParams } from '../../common/jsonapi/pagination';
import { Includes, Paging } from '../../common/jsonapi/query';
import { Sortable } from '../../common/jsonapi/sort';
import { RUN_DOC } from '../runs.serializer';
import { WORKSPACE_DOC } from '../../workspaces/workspaces.serializer';
import { pageOfAll, pageResult } from '../../common/sql/paginate';
import {
  POLICY_CHECK_DOC,
  POLICY_EVALUATION_DOC,
  POLICY_SET_OUTCOME_DOC,
  serializePolicyCheck,
  serializePolicyEvaluation,
  serializePolicySetOutcome,
} from './policy-checks.serializer';
import { PolicyChecksService } from './policy-checks.service';
import { Endpoint } from '../../http/endpoint';

/** go-tfe's PolicyCheckIncludeOpt values. */
const CHECK_INCLUDES = ['run', 'run.workspace'] as const;
const CHECK_INCLUDED = [RUN_DOC, WORKSPACE_DOC];

/**
 * The real service's Policy Checks, Policy Evaluations and policy set outcomes (go-tfe's
 * PolicyChecks List, Read, Override and Logs work on these routes). Reading needs read access to
 * the run; overriding, the organization permission `manage-policy-overrides` as well.
 */
@ApiTags('policy checks')
@ApiBearerAuth()
@Controller(API_V2)
export class PolicyChecksController {
  constructor(private readonly checks: PolicyChecksService) {}

  @Get('runs/:id/policy-checks')
  @ApiOperation({ summary: "A run's policy checks (at most one: the check after its plan)" })
  @Endpoint({ list: [POLICY_CHECK_DOC, { includes: CHECK_INCLUDES, includedDocs: CHECK_INCLUDED }] })
  @Sortable({ 'created-at': 'createdAt' }, 'created-at')
  async list(
    @CurrentPrincipal() p: Principal,
    @Param('id') id: string,
    @Paging() paging: PageParams,
    @Includes(CHECK_INCLUDES) includes: string[],
  ): Promise<CollectionDocument> {
    const page = await this.checks.list(p, id, paging);
    return new CollectionDocument(
      page.items.map(serializePolicyCheck),
      pageResult(page),
      await this.checks.included(p, page.items, includes),
    );
  }

  @Get('policy-checks/:id')
  @ApiOperation({ summary: 'A policy check: status, result counts, per-set and per-policy outcomes' })
  @Endpoint({ show: [POLICY_CHECK_DOC, CHECK_INCLUDES, CHECK_INCLUDED] })
  async show(
    @CurrentPrincipal() p: Principal,
    @Param('id') id: string,
    @Includes(CHECK_INCLUDES) includes: string[],
  ): Promise<ResourceDocument> {
    const view = await this.checks.show(p, id);
    return new ResourceDocument(serializePolicyCheck(view), await this.checks.included(p, [view], includes));
  }

  @Post('policy-checks/:id/actions/override')
  @Endpoint({ effect: 'leaves-access-alone' })
  @HttpCode(200)
  @ApiOperation({
    summary:
      'Override a soft-failed policy check; the run goes on (policy_checked, then apply if auto-apply)',
    description:
      'Needs read access to the run and the organization permission manage-policy-overrides: a caller ' +
      'without either gets 404 (the real service documents no status for this; its general rule, and ' +
      "Plinth's for every run action, is 404). 409 unless the check is soft_failed and its run waits in " +
      'policy_override. No body.',
  })
  @ApiResponse({
    status: 200,
    schema: { type: 'object', properties: { data: resourceSchema(POLICY_CHECK_DOC) } },
  })
  @ApiErrors(401, 404, 409)
  async override(@CurrentPrincipal() p: Principal, @Param('id') id: string): Promise<ResourceDocument> {
    return new ResourceDocument(serializePolicyCheck(await this.checks.override(p, id)));
  }

  @Get('policy-checks/:id/output')
  @ApiOperation({ summary: "The engines' output for every policy of the check, as plain text" })
  @ApiProduces('text/plain')
  @ApiResponse({ status: 200, description: 'The output', schema: { type: 'string' } })
  @ApiErrors(401, 404)
  async output(@CurrentPrincipal() p: Principal, @Param('id') id: string): Promise<StreamableFile> {
    const text = Buffer.from(await this.checks.output(p, id), 'utf8');
    return new StreamableFile(text, { type: 'text/plain; charset=utf-8', length: text.length });
  }

  @Get('policy-checks/:id/policy-evaluations')
  @ApiOperation({ summary: "The check's evaluations: one per policy set that applied, by set name" })
  @Endpoint({ list: [POLICY_EVALUATION_DOC] })
  @Sortable({ 'created-at': 'createdAt' }, 'by policy set name')
  async evaluations(
    @CurrentPrincipal() p: Principal,
    @Param('id') id: string,
    @Paging() paging: PageParams,
  ): Promise<CollectionDocument> {
    const page = await this.checks.evaluations(p, id, paging);
    return new CollectionDocument(page.items.map(serializePolicyEvaluation), pageResult(page));
  }

  @Get('policy-evaluations/:id')
  @ApiOperation({ summary: 'One policy set evaluation of a check' })
  @Endpoint({ show: [POLICY_EVALUATION_DOC] })
  async evaluation(@CurrentPrincipal() p: Principal, @Param('id') id: string): Promise<ResourceDocument> {
    return new ResourceDocument(serializePolicyEvaluation(await this.checks.evaluation(p, id)));
  }

  @Get('policy-evaluations/:id/policy-set-outcomes')
  @ApiOperation({ summary: "The evaluation's policy set outcome (one per evaluation)" })
  @Endpoint({ list: [POLICY_SET_OUTCOME_DOC] })
  @Sortable({ 'created-at': 'createdAt' }, 'created-at (there is one)')
  async outcomes(
    @CurrentPrincipal() p: Principal,
    @Param('id') id: string,
    @Paging() paging: PageParams,
  ): Promise<CollectionDocument> {
    const page = pageOfAll([await this.checks.evaluation(p, id)], paging);
    return new CollectionDocument(page.items.map(serializePolicySetOutcome), pageResult(page));
  }

  @Get('policy-set-outcomes/:id')
  @ApiOperation({ summary: 'A policy set outcome: per-policy results and the engine output' })
  @Endpoint({ show: [POLICY_SET_OUTCOME_DOC] })
  async outcome(@CurrentPrincipal() p: Principal, @Param('id') id: string): Promise<ResourceDocument> {
    return new ResourceDocument(serializePolicySetOutcome(await this.checks.outcome(p, id)));
  }
}
