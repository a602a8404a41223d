import { CallHandler, ExecutionContext, Injectable, NestInterceptor } from '@nestjs/common';
import type { Request, Response } from 'express';
import { Reflector } from '@nestjs/core';
import { map, Observable } from 'rxjs';
import { AppConfig } from '../../config/app-config';
import { requestOrigin } from './base-url';
import { CollectionDocument, ResourceDocument } from './document';
import { JSONAPI_MEDIA_TYPE } from './media-type';
import { paginationLinks, paginationMeta } from './pagination';
import { parseInclude, READS_INCLUDE } from './query';

/**
 * Turns the documents controllers return into JSON:API bodies with the JSON:API media type.
 * A route that includes nothing refuses `include` (400), as JSON:API asks, instead of ignoring it.
 */
@Injectable()
export class JsonApiInterceptor implements NestInterceptor {
  constructor(
    private readonly config: AppConfig,
    private readonly reflector: Reflector,
  ) {}

  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    const http = context.switchToHttp();
    const req = http.getRequest<Request>();
    const res = http.getResponse<Response>();
    if (!this.reflector.get<boolean>(READS_INCLUDE, context.getHandler())) parseInclude(req.query, []);
    return next.handle().pipe(
      map((value: unknown) => {
        if (value instanceof ResourceDocument) {
          res.type(JSONAPI_MEDIA_TYPE);
          const body: Record<string, unknown> = { data: value.data };
          if (value.included) body.included = value.included;
          if (value.meta) body.meta = value.meta;
          return body;
        }
        if (value instanceof CollectionDocument) {
          res.type(JSONAPI_MEDIA_TYPE);
          const origin = requestOrigin(req, this.config.baseUrl);
          const links = paginationLinks(origin, req.path, req.query, value.page);
          const body: Record<string, unknown> = {
            data: value.data,
            links: { ...links, ...value.extraLinks },
            meta: { pagination: paginationMeta(value.page) },
          };
          if (value.included) body.included = value.included;
          return body;
        }
        return value;
      }),
    );
  }
}
