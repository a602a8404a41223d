import { Body, Controller, Post, Req, Res } from '@nestjs/common';
import { ApiBearerAuth, ApiBody, ApiOperation, ApiResponse, ApiTags } from '@nestjs/swagger';
import type { Request, Response } from 'express';
import { API_V2 } from '../../common/api-prefix';
import { badRequest } from '../../common/errors/domain-error';
import { validateAttributes } from '../../common/jsonapi/body';
import { schemaOf } from '../../common/jsonapi/dto-schema';
import { ApiErrors } from '../../common/jsonapi/openapi';
import { AgentTokenContext } from './agent-context';
import { RegisterAgentBody, Registration } from './agent-protocol.types';
import { AgentsService } from '../pools/agents.service';
import { CurrentAgentToken } from './current-agent.decorator';
import { Endpoint } from '../../http/endpoint';

/**
 * The executor side of the job protocol (docs/runs.md): plain JSON, authenticated by an agent
 * token. Registration lives here; the job routes are the run control plane's.
 */
@ApiTags('executor protocol')
@ApiBearerAuth()
@Controller(`${API_V2}/agent`)
export class AgentProtocolController {
  constructor(private readonly agents: AgentsService) {}

  @Post('register')
  @Endpoint({ auth: 'agent-registration', effect: 'leaves-access-alone' })
  @ApiOperation({
    summary:
      'An executor announces itself with an agent token and gets its agent id (send it as X-Plinth-Agent)',
  })
  @ApiBody({ schema: schemaOf(RegisterAgentBody) })
  @ApiResponse({
    status: 201,
    headers: {
      Location: { description: 'The new agent (`/api/v2/agents/:id`)', schema: { type: 'string' } },
    },
    schema: schemaOf(Registration),
  })
  @ApiErrors(400, 401, 422)
  async register(
    @CurrentAgentToken() token: AgentTokenContext,
    @Body() body: unknown,
    @Req() req: Request,
    @Res({ passthrough: true }) res: Response,
  ): Promise<Registration> {
    if (typeof body !== 'object' || body === null || Array.isArray(body)) {
      throw badRequest('request body must be a JSON object with a name');
    }
    const { name } = validateAttributes(RegisterAgentBody, body as Record<string, unknown>);
    const registration = await this.agents.register(token, name, req.ip);
    res.setHeader('Location', `/api/v2/agents/${registration['agent-id']}`);
    return registration;
  }
}
