import { Body, Controller, Get, HttpCode, Param, Post } from '@nestjs/common';
import { ApiBearerAuth, ApiBody, ApiOperation, ApiResponse, ApiTags } from '@nestjs/swagger';
import { API_V2 } from '../common/api-prefix';
import { CurrentPrincipal } from '../common/auth/current-principal.decorator';
import { Principal } from '../common/auth/principal';
import { pageResult } from '../common/sql/paginate';
import { badRequest } from '../common/errors/domain-error';
import { JsonApiBody, ParsedBody } from '../common/jsonapi/body';
import { CollectionDocument, ResourceDocument } from '../common/jsonapi/document';
import { ApiErrors, commaListOf, resourceSchema } from '../common/jsonapi/openapi';
import { PageParams } from '../common/jsonapi/pagination';
import { Includes, Paging, QueryValue } from '../common/jsonapi/query';
import { LinkOrigin } from '../storage/link-origin.decorator';
import { WORKSPACE_DOC } from '../workspaces/workspaces.serializer';
import { WorkspacesService } from '../workspaces/workspaces.service';
import { serializeWorkspace } from '../workspaces/workspaces.serializer';
import { CONFIGURATION_VERSION_DOC } from './configuration-versions.serializer';
import { CreateRunAttributes } from './dto/run-attributes.dto';
import { RunAction, RUN_STATUSES, RunStatus } from './run-rules';
import { RUN_INCLUDES, RunsPresenter } from './runs.presenter';
import { APPLY_DOC, COST_ESTIMATE_DOC, PLAN_DOC, RUN_DOC, TASK_STAGE_DOC } from './runs.serializer';
import { actionComment, RunCommentsService } from './run-comments.service';
import { RunsService } from './runs.service';
import { USER_DOC } from '../users/users.serializer';
import { Sortable } from '../common/jsonapi/sort';
import { Endpoint } from '../http/endpoint';

export const RUN_INCLUDED_DOCS = [
  WORKSPACE_DOC,
  CONFIGURATION_VERSION_DOC,
  USER_DOC,
  PLAN_DOC,
  APPLY_DOC,
  TASK_STAGE_DOC,
  COST_ESTIMATE_DOC,
];
const COMMENT_BODY = {
  required: false,
  schema: {
    type: 'object',
    properties: {
      comment: {
        type: 'string',
        description: 'Kept as a comment of the run (GET /runs/:id/comments) once the action is done',
      },
    },
  },
};

/** How `filter[status]` (parsed by `statusFilter`) shows in the OpenAPI document. */
export const STATUS_FILTER_DOC = {
  'filter[status]': { description: 'comma list of run statuses', schema: commaListOf(RUN_STATUSES) },
};

export function statusFilter(raw: string | undefined): RunStatus[] | undefined {
  if (raw === undefined || raw.trim() === '') return undefined;
  const values = raw.split(',').map((v) => v.trim());
  const unknown = values.filter((v) => !(RUN_STATUSES as readonly string[]).includes(v));
  if (unknown.length) {
    throw badRequest(
      `filter[status] contains unknown status ${unknown.slice(0, 3).join(', ')}`,
      'filter[status]',
    );
  }
  return values as RunStatus[];
}

@ApiTags('runs')
@ApiBearerAuth()
@Controller(API_V2)
export class RunsController {
  constructor(
    private readonly runs: RunsService,
    private readonly presenter: RunsPresenter,
    private readonly workspaces: WorkspacesService,
    private readonly comments: RunCommentsService,
  ) {}

  @Post('runs')
  @ApiOperation({
    summary: 'Queue a run',
    description:
      "Needs plan access to the workspace. `configuration-version` defaults to the workspace's newest " +
      'uploaded one; `auto-apply` to the workspace setting. Plan-only runs (or runs of a speculative ' +
      'version) start at once; others wait in `pending` while another run of the workspace is in progress ' +
      'or the workspace is locked. Saved plans (`save-plan`) also plan at once, without the lock, and stop ' +
      'in `planned_and_saved` until applied or discarded. 422 for options that cannot go together: ' +
      '`refresh-only` with `is-destroy`, with `refresh: false` or with `replace-addrs`; `terraform-version` ' +
      'on a run that is not plan-only; `save-plan` on a plan-only run.',
  })
  @Endpoint({
    effect: 'leaves-access-alone',
    create: [
      RUN_DOC,
      {
        writable: [
          'message',
          'is-destroy',
          'plan-only',
          'auto-apply',
          'refresh',
          'refresh-only',
          'target-addrs',
          'replace-addrs',
          'allow-empty-apply',
          'allow-config-generation',
          'save-plan',
          'terraform-version',
          'variables',
        ],
        requestOnly: {
          variables: {
            type: 'array',
            description:
              'Run variables (docs/variables.md): each value an HCL literal expression, as the CLI sends ' +
              '`-var`; stored sealed with the run and handed to its jobs above workspace variables and ' +
              'non-priority sets.',
            items: {
              type: 'object',
              required: ['key', 'value'],
              properties: { key: { type: 'string', maxLength: 128 }, value: { type: 'string' } },
            },
          },
        },
        relationships: ['workspace', 'configuration-version'],
        requiredRelationships: ['workspace'],
      },
    ],
  })
  async create(
    @CurrentPrincipal() p: Principal,
    @JsonApiBody(CreateRunAttributes, { types: ['runs'], typeRequired: false })
    body: ParsedBody<CreateRunAttributes>,
  ): Promise<ResourceDocument> {
    const { run, workspace } = await this.runs.create(p, body);
    const withVariables = (body.attributes.variables ?? []).length > 0;
    return new ResourceDocument(await this.presenter.resource(p, run, { workspace, withVariables }));
  }

  @Get('runs/:id')
  @Endpoint({ show: [RUN_DOC, RUN_INCLUDES, RUN_INCLUDED_DOCS] })
  async show(
    @CurrentPrincipal() p: Principal,
    @Param('id') id: string,
    @Includes(RUN_INCLUDES) includes: string[],
    @LinkOrigin() origin: string,
  ): Promise<ResourceDocument> {
    const run = await this.runs.requireReadable(p, id);
    return new ResourceDocument(
      await this.presenter.resource(p, run),
      await this.presenter.included(p, [run], includes, origin),
    );
  }

  @Get('workspaces/:id/runs')
  @ApiOperation({ summary: 'Runs of a workspace, newest first' })
  @Sortable({ 'created-at': 'createdAt' }, '-created-at')
  @Endpoint({
    list: [
      RUN_DOC,
      {
        includes: RUN_INCLUDES,
        includedDocs: RUN_INCLUDED_DOCS,
        query: {
          ...STATUS_FILTER_DOC,
        },
      },
    ],
  })
  async list(
    @CurrentPrincipal() p: Principal,
    @Param('id') id: string,
    @Paging() paging: PageParams,
    @Includes(RUN_INCLUDES) includes: string[],
    @LinkOrigin() origin: string,
    @QueryValue('filter[status]') status?: string,
  ): Promise<CollectionDocument> {
    const page = await this.runs.list(p, id, statusFilter(status), paging);
    return new CollectionDocument(
      await this.presenter.resources(p, page.items),
      pageResult(page),
      await this.presenter.included(p, page.items, includes, origin),
    );
  }

  @Post('runs/:id/actions/apply')
  @Endpoint({ effect: 'leaves-access-alone' })
  @HttpCode(202)
  @ApiOperation({
    summary:
      'Confirm a planned (or policy-checked) run (needs write); 409 unless it is paused for confirmation',
  })
  @ApiBody(COMMENT_BODY)
  @ApiResponse({ status: 202, description: 'Accepted; no body' })
  @ApiErrors(401, 404, 409, 422)
  apply(@CurrentPrincipal() p: Principal, @Param('id') id: string, @Body() body: unknown): Promise<void> {
    return this.act(p, id, 'apply', body);
  }

  @Post('runs/:id/actions/discard')
  @Endpoint({ effect: 'leaves-access-alone' })
  @HttpCode(202)
  @ApiOperation({
    summary:
      'Discard a run (needs write) paused for confirmation, in its policy check or waiting for an override; 409 otherwise',
  })
  @ApiBody(COMMENT_BODY)
  @ApiResponse({ status: 202, description: 'Accepted; no body' })
  @ApiErrors(401, 404, 409, 422)
  discard(@CurrentPrincipal() p: Principal, @Param('id') id: string, @Body() body: unknown): Promise<void> {
    return this.act(p, id, 'discard', body);
  }

  @Post('runs/:id/actions/cancel')
  @Endpoint({ effect: 'leaves-access-alone' })
  @HttpCode(202)
  @ApiOperation({
    summary: 'Cancel a run (needs write)',
    description:
      'A run that waits (pending, plan_queued, apply_queued, policy_checking, policy_override) ends `canceled` ' +
      'at once. A planning or ' +
      'applying run is asked to stop: its executor learns it from its next heartbeat and reports, and ' +
      'the run ends `canceled`; after a cool-off of ten seconds it may be force-canceled. 409 otherwise.',
  })
  @ApiBody(COMMENT_BODY)
  @ApiResponse({ status: 202, description: 'Accepted; no body' })
  @ApiErrors(401, 404, 409, 422)
  cancel(@CurrentPrincipal() p: Principal, @Param('id') id: string, @Body() body: unknown): Promise<void> {
    return this.act(p, id, 'cancel', body);
  }

  @Post('runs/:id/actions/force-cancel')
  @Endpoint({ effect: 'leaves-access-alone' })
  @HttpCode(202)
  @ApiOperation({
    summary: 'End a canceled run whose executor did not stop (needs admin)',
    description: '409 unless the run is planning or applying, was canceled first, and the cool-off passed.',
  })
  @ApiBody(COMMENT_BODY)
  @ApiResponse({ status: 202, description: 'Accepted; no body' })
  @ApiErrors(401, 404, 409, 422)
  forceCancel(
    @CurrentPrincipal() p: Principal,
    @Param('id') id: string,
    @Body() body: unknown,
  ): Promise<void> {
    return this.act(p, id, 'force-cancel', body);
  }

  @Post('workspaces/:id/actions/lock')
  @Endpoint({ effect: 'leaves-access-alone' })
  @HttpCode(200)
  @ApiOperation({
    summary:
      'Lock a workspace (needs write): no queued run starts until it is unlocked; 409 if locked (by anyone, a run too)',
  })
  @ApiBody({ required: false, schema: { type: 'object', properties: { reason: { type: 'string' } } } })
  @ApiResponse({
    status: 200,
    schema: { type: 'object', properties: { data: resourceSchema(WORKSPACE_DOC) } },
  })
  @ApiErrors(401, 404, 409, 422)
  async lock(@CurrentPrincipal() p: Principal, @Param('id') id: string): Promise<ResourceDocument> {
    await this.runs.lock(p, id);
    return this.workspace(p, id);
  }

  @Post('workspaces/:id/actions/unlock')
  @Endpoint({ effect: 'leaves-access-alone' })
  @HttpCode(200)
  @ApiOperation({
    summary: 'Unlock a workspace (needs write); the next pending run starts',
    description:
      '409 if it is not locked, or is locked by someone else ("locked by User|Team|Organization|Run"; ' +
      'a run that may apply holds the lock from the start of its plan to its end); ' +
      '422 ("latest state version is still pending") while the newest state version waits for its content.',
  })
  @ApiResponse({
    status: 200,
    schema: { type: 'object', properties: { data: resourceSchema(WORKSPACE_DOC) } },
  })
  @ApiErrors(401, 404, 409, 422)
  async unlock(@CurrentPrincipal() p: Principal, @Param('id') id: string): Promise<ResourceDocument> {
    await this.runs.unlock(p, id);
    return this.workspace(p, id);
  }

  @Post('workspaces/:id/actions/force-unlock')
  @Endpoint({ effect: 'leaves-access-alone' })
  @HttpCode(200)
  @ApiOperation({
    summary: 'Unlock a workspace whoever holds the lock (needs admin); the next pending run starts',
    description:
      '409 if it is not locked. State versions of the workspace still waiting for their content are ' +
      'discarded (a pending version otherwise keeps the workspace from being unlocked).',
  })
  @ApiResponse({
    status: 200,
    schema: { type: 'object', properties: { data: resourceSchema(WORKSPACE_DOC) } },
  })
  @ApiErrors(401, 404, 409)
  async forceUnlock(@CurrentPrincipal() p: Principal, @Param('id') id: string): Promise<ResourceDocument> {
    await this.runs.forceUnlock(p, id);
    return this.workspace(p, id);
  }

  /** The action, then its comment (if any): a crash in between loses the comment, never the action. */
  private async act(p: Principal, id: string, action: RunAction, body: unknown): Promise<void> {
    const comment = actionComment(body);
    await this.runs.act(p, id, action);
    if (comment) await this.comments.recordAction(p, id, action, comment);
  }

  private async workspace(p: Principal, id: string): Promise<ResourceDocument> {
    const view = await this.workspaces.view(p, await this.workspaces.requireAccess(p, id));
    return new ResourceDocument(
      serializeWorkspace(
        view.workspace,
        view.organization.name,
        view.level,
        view.currentRunId,
        view.writesState,
      ),
    );
  }
}
