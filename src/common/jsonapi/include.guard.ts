import { CanActivate, ExecutionContext, Injectable } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import type { Request } from 'express';
import { parseInclude, READS_INCLUDE } from './query';

/**
 * A route that includes nothing refuses `include` (400), as JSON:API asks, instead of ignoring it.
 * Routes that read it (`@Includes`) validate it themselves against their own allow-list.
 * Runs after authentication: an anonymous caller learns nothing about a route's includes.
 */
@Injectable()
export class IncludeGuard implements CanActivate {
  constructor(private readonly reflector: Reflector) {}

  canActivate(context: ExecutionContext): boolean {
    const query = context.switchToHttp().getRequest<Request>().query;
    if (query.include !== undefined && !this.reflector.get<boolean>(READS_INCLUDE, context.getHandler())) {
      parseInclude(query, []);
    }
    return true;
  }
}
