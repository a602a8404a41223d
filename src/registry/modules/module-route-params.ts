import { applyDecorators, createParamDecorator, ExecutionContext } from '@nestjs/common';
import { ApiParam } from '@nestjs/swagger';
import type { Request } from 'express';
import { ModulePath } from './registry-modules.service';

/** Path of a module name (every provider it is published for). */
export const MODULE_NAME_ROUTE = 'organizations/:org/registry-modules/:registry_name/:namespace/:name';
/** Path of one module (a name for one provider); its versions hang below it. */
export const MODULE_ROUTE = `${MODULE_NAME_ROUTE}/:provider`;

/** The module the path names (`provider` is empty on name-level routes). */
export const ModulePathParam = createParamDecorator((_: unknown, ctx: ExecutionContext): ModulePath => {
  const params = ctx.switchToHttp().getRequest<Request>().params as Record<string, string>;
  return {
    org: params.org,
    registryName: params.registry_name ?? 'private',
    // The deprecated routes name no registry and no namespace: a private module of the organization.
    namespace: params.namespace ?? params.org,
    name: params.name,
    provider: params.provider ?? '',
  };
});

const PARAMS = {
  org: 'Organization name',
  registry_name: '`private`, or `public` for a curated public module (which has no versions here)',
  namespace: 'The organization name for private modules',
  name: 'Module name',
  provider: 'The provider the module targets',
  version: 'Module version',
};

/** OpenAPI path parameters of a module route, by name. */
export function ApiModuleParams(...names: (keyof typeof PARAMS)[]): MethodDecorator {
  return applyDecorators(...names.map((name) => ApiParam({ name, type: String, description: PARAMS[name] })));
}

export const MODULE_PATH_PARAMS = ['org', 'registry_name', 'namespace', 'name', 'provider'] as const;
