import {
  applyDecorators,
  CallHandler,
  ExecutionContext,
  Injectable,
  NestInterceptor,
  SetMetadata,
  UseInterceptors,
} from '@nestjs/common';
import { HTTP_CODE_METADATA } from '@nestjs/common/constants';
import { Reflector } from '@nestjs/core';
import type { Request, RequestHandler, Response } from 'express';
import { Observable } from 'rxjs';
import { refuseClientId } from '../common/jsonapi/request.guard';
import { AppConfig } from '../config/app-config';
import { hasBody } from './response-cache.middleware';
import { jsonBodyParser } from './json-body-parser';

const LIMIT = 'plinth:large-json-body-limit';

type LimitOf = (config: AppConfig) => number;

/**
 * Reads the JSON body of a route listed in the pipeline's AFTER_AUTH_BODY_ROUTES, after the guards
 * (so only for authenticated callers), up to the limit the route names.
 */
@Injectable()
export class LargeJsonBodyInterceptor implements NestInterceptor {
  private readonly parsers = new Map<LimitOf, RequestHandler>();

  constructor(
    private readonly reflector: Reflector,
    private readonly config: AppConfig,
  ) {}

  async intercept(context: ExecutionContext, next: CallHandler): Promise<Observable<unknown>> {
    const http = context.switchToHttp();
    const req = http.getRequest<Request>();
    if (req.body === undefined && hasBody(req)) {
      const limitOf = this.reflector.get<LimitOf>(LIMIT, context.getHandler());
      let parse = this.parsers.get(limitOf);
      if (!parse) {
        parse = jsonBodyParser(limitOf(this.config));
        this.parsers.set(limitOf, parse);
      }
      await new Promise<void>((resolve, reject) =>
        parse(req, http.getResponse<Response>(), (err?: unknown) =>
          err instanceof Error ? reject(err) : resolve(),
        ),
      );
    }
    // JsonApiRequestGuard ran before the body was read: its refusal of client ids applies here.
    if (
      req.method === 'POST' &&
      this.reflector.get<number>(HTTP_CODE_METADATA, context.getHandler()) === 201
    ) {
      refuseClientId(req.body);
    }
    return next.handle();
  }
}

/** The route's JSON body may be up to `limitOf(config)` bytes (see LargeJsonBodyInterceptor). */
export function LargeJsonBody(limitOf: LimitOf): MethodDecorator {
  return applyDecorators(SetMetadata(LIMIT, limitOf), UseInterceptors(LargeJsonBodyInterceptor));
}
