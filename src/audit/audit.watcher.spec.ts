import { EventEmitter } from 'node:events';
import type { Response } from 'express';
import type { HttpAdapterHost } from '@nestjs/core';
import { RequestWatchers } from '../http/request-watchers';
import { noteErrorCode } from '../observability/http-logging';
import { AuditWatcher, captureWrite } from './audit.watcher';
import type { AuditRecorder } from './audit.recorder';

function answer(statusCode: number) {
  return Object.assign(new EventEmitter(), { statusCode, writableFinished: true, getHeader: () => 'req-1' });
}

describe('AuditWatcher', () => {
  it('records the client address even when the connection is gone by the time the answer ends', () => {
    const record = jest.fn();
    const watchers = new RequestWatchers();
    const sut = new AuditWatcher({ enabled: true, record } as unknown as AuditRecorder, watchers, {
      httpAdapter: {},
    } as HttpAdapterHost);
    sut.onModuleInit();
    const req = {
      method: 'PUT',
      path: '/uploads/x',
      originalUrl: '/uploads/x',
      url: '/uploads/x',
      params: {},
      headers: {},
      socket: { remoteAddress: '203.0.113.7' } as { remoteAddress: string } | null,
      get ip() {
        // As Express computes it: from the socket, which a closed connection no longer has.
        return this.socket!.remoteAddress;
      },
    };
    const res = Object.assign(answer(200), { writableFinished: false });
    const next = jest.fn();

    watchers.middleware(req as never, res as unknown as Response, next);
    req.socket = null;
    expect(() => res.emit('close')).not.toThrow();

    expect(next).toHaveBeenCalled();
    expect(record).toHaveBeenCalledWith(
      expect.objectContaining({ clientAddress: '203.0.113.7', outcome: 'failure', requestId: 'req-1' }),
    );
  });

  it('names the route a write refused before routing was sent to, with its parameters', () => {
    const req = { method: 'PATCH', path: '/api/v2/workspaces/ws-1', headers: {}, socket: {} };
    const found = captureWrite(req as never, answer(422) as unknown as Response, null, (method, path) =>
      method === 'PATCH' && path === '/api/v2/workspaces/ws-1'
        ? { path: '/api/v2/workspaces/:id', params: { id: 'ws-1' } }
        : undefined,
    );
    expect(found).toMatchObject({
      actorType: 'anonymous',
      route: '/api/v2/workspaces/:id',
      resourceType: 'workspaces',
      resourceId: 'ws-1',
      action: 'update',
      status: 422,
      outcome: 'failure',
    });
    const nowhere = captureWrite(req as never, answer(404) as unknown as Response, null, () => undefined);
    expect(nowhere).toMatchObject({ route: '(unmatched)', resourceType: '(unmatched)', resourceId: null });
  });

  it("keeps a coded refusal's code, and null for every other answer", () => {
    const req = {
      method: 'POST',
      path: '/api/v2/workspaces/ws-1/actions/lock',
      params: { id: 'ws-1' },
      route: { path: '/api/v2/workspaces/:id/actions/lock' },
      baseUrl: '',
      headers: {},
      socket: {},
    };
    const refused = answer(409);
    noteErrorCode(refused as never, 'WORKSPACE_ALREADY_LOCKED');
    expect(captureWrite(req as never, refused as unknown as Response, null)).toMatchObject({
      status: 409,
      outcome: 'failure',
      errorCode: 'WORKSPACE_ALREADY_LOCKED',
    });
    expect(captureWrite(req as never, answer(404) as unknown as Response, null).errorCode).toBeNull();
    expect(captureWrite(req as never, answer(200) as unknown as Response, null).errorCode).toBeNull();
  });

  it('records an executor as its agent, by name, in its organization', () => {
    const req = {
      method: 'POST',
      path: '/api/v2/agent/jobs/job-1/finish',
      params: { id: 'job-1' },
      route: { path: '/api/v2/agent/jobs/:id/finish' },
      baseUrl: '',
      headers: {},
      socket: {},
      agent: {
        tokenId: 'at-1',
        poolId: 'apool-1',
        organizationId: 'org-1',
        organizationScoped: true,
        agentId: 'agent-1',
        agentName: `host-${'é'.repeat(70)}`,
      },
    };
    const event = captureWrite(req as never, answer(204) as unknown as Response, null);
    expect(event).toMatchObject({
      actorType: 'agent',
      actorId: 'agent-1',
      tokenId: 'at-1',
      organizationId: 'org-1',
      resourceType: 'jobs',
      resourceId: 'job-1',
      action: 'finish',
    });
    expect([...event.actorName!]).toHaveLength(64);
  });
});
