import { applyDecorators, createParamDecorator, ExecutionContext } from '@nestjs/common';
import { ApiParam } from '@nestjs/swagger';
import type { Request } from 'express';
import { PlatformPath } from './versions/provider-platforms.service';

/** Path of a provider's routes; its versions and platforms hang below it. */
export const PROVIDER_ROUTE = 'organizations/:org/registry-providers/:registry_name/:namespace/:name';

/** The provider, version and platform named by the path (the parts the route has). */
export const RegistryPath = createParamDecorator((_: unknown, ctx: ExecutionContext): PlatformPath => {
  const params = ctx.switchToHttp().getRequest<Request>().params as Record<string, string>;
  return {
    org: params.org,
    registryName: params.registry_name,
    namespace: params.namespace,
    name: params.name,
    version: params.version,
    os: params.os,
    arch: params.arch,
  };
});

const PARAMS = {
  org: 'Organization name',
  registry_name: '`private` (a `public` provider answers 403 on version and platform routes)',
  namespace: 'The organization name for private providers',
  name: 'Provider name',
  version: 'Provider version',
  os: 'Platform operating system',
  arch: 'Platform architecture',
};

/** OpenAPI path parameters of a registry route, down to the given level. */
export function ApiRegistryParams(level: 'provider' | 'version' | 'platform'): MethodDecorator {
  const names = Object.keys(PARAMS).slice(0, level === 'provider' ? 4 : level === 'version' ? 5 : 7);
  return applyDecorators(
    ...names.map((name) =>
      ApiParam({ name, type: String, description: PARAMS[name as keyof typeof PARAMS] }),
    ),
  );
}
