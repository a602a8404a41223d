import { Injectable, Logger, OnModuleInit } from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';
import type { Request, Response } from 'express';
import { randomUUID } from 'node:crypto';
import type { AgentContext, AgentTokenContext } from '../runs/protocol/agent-context';
import { Principal } from '../common/auth/principal';
import { requestContext } from '../common/request-context';
import { JsonApiExpressAdapter } from '../http/jsonapi.adapter';
import { RequestWatchers } from '../http/request-watchers';
import type { FoundRoute } from '../http/route-table';
import { errorCodeOf } from '../observability/http-logging';
import { routeLabel, UNMATCHED_ROUTE } from '../observability/metrics.service';
import { describeWrite } from './audit-capture';
import { AuditRecorder } from './audit.recorder';
import { AuditEventEntity } from './entities/audit-event.entity';

const READS = new Set(['GET', 'HEAD', 'OPTIONS']);

type AuditedRequest = Request & {
  user?: Principal;
  agentToken?: AgentTokenContext;
  agent?: AgentContext;
};

/** Where a request refused before routing would have gone. */
export type RouteFinder = (method: string, path: string) => FoundRoute | undefined;

/**
 * Records every write request once it has been answered (or its connection has closed), whatever
 * route it reached or would have reached: it watches every request from just after the rate limit
 * (RequestWatchers), so neither a new route nor a refusal before routing (a body that is not JSON,
 * too large or not well-formed Unicode) can escape it. It reads only what the pipeline already
 * knows — the principal, the route template and its parameters, the resource the answer named, the
 * status and a coded refusal's code — never a body, a query string or a header other than the request id.
 */
@Injectable()
export class AuditWatcher implements OnModuleInit {
  private readonly logger = new Logger('AuditTrail');
  private readonly findRoute: RouteFinder = (method, path) => {
    // Asked when a request ends: the adapter is the application's by then.
    const adapter: unknown = this.adapterHost.httpAdapter;
    return adapter instanceof JsonApiExpressAdapter ? adapter.routeFor(method, path) : undefined;
  };

  constructor(
    private readonly recorder: AuditRecorder,
    private readonly watchers: RequestWatchers,
    private readonly adapterHost: HttpAdapterHost,
  ) {}

  onModuleInit(): void {
    this.watchers.register((req, res) => this.watch(req as AuditedRequest, res));
  }

  watch(req: AuditedRequest, res: Response): void {
    if (READS.has(req.method) || !this.recorder.enabled) return;
    // Read now: once the connection has closed, the request may have no socket left to ask.
    const clientAddress = clientAddressOf(req);
    res.once('close', () => {
      try {
        if (requestContext(req).unchangedWhen.includes(res.statusCode)) return;
        this.recorder.record(captureWrite(req, res, clientAddress, this.findRoute));
      } catch (err) {
        // A listener that throws would take the process down: an unrecorded event is the lesser harm.
        this.logger.error({ err }, 'could not record an audit event');
      }
    });
  }
}

/** The client address as trusted (`TRUST_PROXY`), while the request still has its socket. */
export function clientAddressOf(req: AuditedRequest): string | null {
  const address = req.socket ? (req.ip ?? req.socket.remoteAddress) : undefined;
  return address ? address.slice(0, 64) : null;
}

export function captureWrite(
  req: AuditedRequest,
  res: Response,
  clientAddress: string | null = clientAddressOf(req),
  findRoute: RouteFinder = () => undefined,
): AuditEventEntity {
  const { route, params } = routeOf(req, findRoute);
  const context = requestContext(req);
  const what = context.writeTarget ?? describeWrite(req.method, route, params, context.writtenResource);
  const finished = res.writableFinished;
  const status = res.statusCode;
  const requestId = res.getHeader('X-Request-Id');
  return Object.assign(new AuditEventEntity(), {
    id: randomUUID(),
    occurredAt: new Date(),
    ...actor(req, context.actingOrganization),
    clientAddress,
    requestId: typeof requestId === 'string' ? requestId.slice(0, 64) : null,
    method: req.method.slice(0, 8),
    route: route.slice(0, 255),
    resourceType: what.resourceType.slice(0, 64),
    resourceId: what.resourceId?.slice(0, 64) ?? null,
    action: what.action.slice(0, 64),
    status,
    // A response cut off before it was complete did not reach the client as a success.
    outcome: finished && status < 400 ? 'success' : 'failure',
    // The code the exception filter noted for the access log (`NAME_TAKEN`), on coded refusals only.
    errorCode: errorCodeOf(res)?.slice(0, 64) ?? null,
  });
}

/** The route the request reached, or for one refused before routing, the route it was sent to. */
function routeOf(
  req: AuditedRequest,
  findRoute: RouteFinder,
): { route: string; params: Record<string, string | undefined> } {
  const route = routeLabel(req);
  if (route !== UNMATCHED_ROUTE) return { route, params: (req.params ?? {}) as Record<string, string> };
  const found = findRoute(req.method, req.path);
  return found ? { route: found.path, params: found.params } : { route, params: {} };
}

/** Who made the request; a user's event is filed under the organization it acted in (PermissionService). */
function actor(
  req: AuditedRequest,
  actingOrganization: string | undefined,
): Pick<AuditEventEntity, 'actorType' | 'actorId' | 'actorName' | 'tokenId' | 'organizationId'> {
  const p = req.user;
  if (p) {
    const organizationId = (p.kind === 'user' ? actingOrganization : p.organizationId) ?? null;
    switch (p.kind) {
      case 'user':
        return {
          actorType: 'user',
          actorId: p.userId,
          actorName: p.username,
          tokenId: p.tokenId,
          organizationId,
        };
      case 'team':
        return { actorType: 'team', actorId: p.teamId, actorName: null, tokenId: p.tokenId, organizationId };
      case 'organization':
        return {
          actorType: 'organization',
          actorId: p.organizationId,
          actorName: null,
          tokenId: p.tokenId,
          organizationId,
        };
    }
  }
  // The agent guard notes the token alone while an executor registers, the agent on every other route.
  const agent = req.agent ?? req.agentToken;
  if (agent) {
    return {
      actorType: 'agent',
      actorId: req.agent?.agentId ?? null,
      actorName: req.agent ? codePoints(req.agent.agentName, 64) : null,
      tokenId: agent.tokenId,
      organizationId: agent.organizationId,
    };
  }
  return { actorType: 'anonymous', actorId: null, actorName: null, tokenId: null, organizationId: null };
}

/** At most `max` characters, never half of a surrogate pair (the column counts characters). */
function codePoints(text: string, max: number): string {
  return text.length <= max ? text : Array.from(text).slice(0, max).join('');
}
