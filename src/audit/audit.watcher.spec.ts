import { EventEmitter } from 'node:events';
import type { NextFunction, Response } from 'express';
import { AuditMiddleware } from './audit.middleware';
import type { AuditRecorder } from './audit.recorder';

describe('AuditMiddleware', () => {
  it('records the client address even when the connection is gone by the time the answer ends', () => {
    const record = jest.fn();
    const middleware = new AuditMiddleware({ enabled: true, record } as unknown as AuditRecorder);
    const req = {
      method: 'PUT',
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
    const res = Object.assign(new EventEmitter(), {
      statusCode: 200,
      writableFinished: false,
      getHeader: () => 'req-1',
    });
    const next = jest.fn() as NextFunction;

    middleware.use(req as never, res as unknown as Response, next);
    req.socket = null;
    expect(() => res.emit('close')).not.toThrow();

    expect(next).toHaveBeenCalled();
    expect(record).toHaveBeenCalledWith(
      expect.objectContaining({ clientAddress: '203.0.113.7', outcome: 'failure', requestId: 'req-1' }),
    );
  });
});
