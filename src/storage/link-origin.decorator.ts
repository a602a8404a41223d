import { createParamDecorator, ExecutionContext } from '@nestjs/common';
import type { Request } from 'express';
import { requestOrigin } from '../common/jsonapi/base-url';

/**
 * The origin the client reached us at. Services pass it to SignedLinks.url, which prefers
 * UPLOAD_URL and BASE_URL when the operator set them.
 */
export const LinkOrigin = createParamDecorator((_: unknown, ctx: ExecutionContext): string =>
  requestOrigin(ctx.switchToHttp().getRequest<Request>()),
);
