import { CanActivate, ExecutionContext, Injectable } from '@nestjs/common';
import type { Request } from 'express';
import { notFound } from '../common/errors/domain-error';
import { isProxied, TrustProxy } from './direct-client';

/**
 * The first-administrator routes answer only requests that reach the server directly. A proxy on
 * the same host makes every client look like loopback, so whoever can reach the proxy could
 * otherwise fetch the IACT and claim the installation.
 */
@Injectable()
export class DirectClientGuard implements CanActivate {
  canActivate(context: ExecutionContext): boolean {
    const req = context.switchToHttp().getRequest<Request>();
    const trustProxy = req.app.get('trust proxy fn') as TrustProxy | undefined;
    if (isProxied(req.socket.remoteAddress, req.headers, trustProxy)) {
      throw notFound('the initial administrator routes answer only direct connections, never a proxy');
    }
    return true;
  }
}
