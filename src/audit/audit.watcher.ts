import { Injectable, Logger, NestMiddleware } from '@nestjs/common';
import type { NextFunction, Request, Response } from 'express';
import { randomUUID } from 'node:crypto';
import type { AgentTokenContext } from '../agent-pools/agent-context';
import { actingOrganizationOf } from '../common/auth/acting-organization';
import { Principal } from '../common/auth/principal';
import { writtenResourceOf } from '../common/jsonapi/written-resource';
import { answeredUnchanged } from '../http/write-effects';
import { routeLabel } from '../observability/metrics.service';
import { describeWrite } from './audit-capture';
import { AuditRecorder } from './audit.recorder';
import { AuditEventEntity } from './entities/audit-event.entity';

const READS = new Set(['GET', 'HEAD', 'OPTIONS']);

type AuditedRequest = Request & {
  user?: Principal;
  agentToken?: AgentTokenContext;
  agent?: { agentId: string };
};

/**
 * Records every write request once it has been answered (or its connection has closed), whatever
 * route it reached: mounted for every path by AuditModule, so a new route cannot forget it. It
 * reads only what the pipeline already knows — the principal, the route template and its
 * parameters, the resource the answer named, the status — never a body, a query string or a header
 * other than the request id.
 */
@Injectable()
export class AuditMiddleware implements NestMiddleware {
  private readonly logger = new Logger(AuditMiddleware.name);

  constructor(private readonly recorder: AuditRecorder) {}

  use(req: AuditedRequest, res: Response, next: NextFunction): void {
    if (READS.has(req.method) || !this.recorder.enabled) return next();
    // Read now: once the connection has closed, the request may have no socket left to ask.
    const clientAddress = clientAddressOf(req);
    res.once('close', () => {
      try {
        if (answeredUnchanged(req, res.statusCode)) return;
        this.recorder.record(captureWrite(req, res, clientAddress));
      } catch (err) {
        // A listener that throws would take the process down: an unrecorded event is the lesser harm.
        this.logger.error({ err }, 'could not record an audit event');
      }
    });
    next();
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
): AuditEventEntity {
  const route = routeLabel(req);
  const params = (req.params ?? {}) as Record<string, string | undefined>;
  const what = describeWrite(req.method, route, params, writtenResourceOf(req));
  const finished = res.writableFinished;
  const status = res.statusCode;
  const requestId = res.getHeader('X-Request-Id');
  return Object.assign(new AuditEventEntity(), {
    id: randomUUID(),
    occurredAt: new Date(),
    ...actor(req),
    clientAddress,
    requestId: typeof requestId === 'string' ? requestId.slice(0, 64) : null,
    method: req.method.slice(0, 8),
    route: route.slice(0, 255),
    resourceType: what.resourceType.slice(0, 64),
    resourceId: what.resourceId,
    action: what.action.slice(0, 64),
    status,
    // A response cut off before it was complete did not reach the client as a success.
    outcome: finished && status < 400 ? 'success' : 'failure',
  });
}

function actor(
  req: AuditedRequest,
): Pick<AuditEventEntity, 'actorType' | 'actorId' | 'actorName' | 'tokenId' | 'organizationId'> {
  const p = req.user;
  if (p) {
    const organizationId = actingOrganizationOf(p) ?? null;
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
  if (req.agentToken) {
    return {
      actorType: 'agent',
      actorId: req.agent?.agentId ?? null,
      actorName: null,
      tokenId: req.agentToken.tokenId,
      organizationId: req.agentToken.organizationId,
    };
  }
  return { actorType: 'anonymous', actorId: null, actorName: null, tokenId: null, organizationId: null };
}
