import { CanActivate, ExecutionContext, Injectable } from '@nestjs/common';
import type { Request } from 'express';
import { notFound } from '../common/errors/domain-error';
import { isDirectLocalClient, TrustProxy } from './direct-client';

export const NOT_DIRECT_DETAIL =
  "the initial administrator routes answer only clients on the server's own machine, never through a proxy";

/**
 * Both first-administrator routes answer only requests from the server's own machine that reach
 * it directly (isDirectLocalClient), checked before the body is read. A proxy on the same host
 * makes every client look like loopback, so whoever can reach the proxy could otherwise fetch the
 * IACT, or spend one they got elsewhere, and claim the installation.
 */
@Injectable()
export class DirectClientGuard implements CanActivate {
  canActivate(context: ExecutionContext): boolean {
    const req = context.switchToHttp().getRequest<Request>();
    const trustProxy = req.app.get('trust proxy fn') as TrustProxy | undefined;
    if (!isDirectLocalClient(req.socket.remoteAddress, req.headers, trustProxy)) {
      throw notFound(NOT_DIRECT_DETAIL);
    }
    return true;
  }
}
