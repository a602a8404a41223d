import { Injectable, NestMiddleware } from '@nestjs/common';
import { notFound } from '../common/errors/domain-error';
import { AppConfig } from '../config/app-config';

/**
 * On a cloud deployment the catalogs do not exist: every request answers 404, before the token
 * is even looked at, exactly as for a path no route serves.
 */
@Injectable()
export class SelfHostedOnlyMiddleware implements NestMiddleware {
  constructor(private readonly config: AppConfig) {}

  use(_req: unknown, _res: unknown, next: () => void): void {
    if (this.config.deployment === 'cloud') throw notFound();
    next();
  }
}
