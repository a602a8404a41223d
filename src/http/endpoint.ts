import { applyDecorators, SetMetadata } from '@nestjs/common';
import { ApiParam } from '@nestjs/swagger';
import { AUTH_KIND, AuthKind } from '../common/auth/auth-kind';
import {
  ApiCreate,
  ApiDelete,
  ApiList,
  ApiRelationship,
  ApiShow,
  ApiUpdate,
} from '../common/jsonapi/openapi';
import { PublicDocs } from './openapi-document';
import { LEAVES_ACCESS_ALONE, UNCHANGED_WHEN } from './write-effects';

/**
 * What a write does to the shared change epochs (docs/architecture.md): `leaves-access-alone` for
 * writes that cannot change what a token stands for or what a principal may do (they advance only
 * the `changes` epoch, so every process keeps its remembered tokens and rights), `changes-access`
 * for writes to tokens, users, teams, memberships or organizations (both epochs advance).
 */
export type WriteEffect = 'leaves-access-alone' | 'changes-access';

/** What one route declares, in one place. */
export interface EndpointOptions {
  /** Who may call it and how it is checked (AuthKind); `user`, an API token, when left out. */
  auth?: AuthKind;
  /** Required on every write route (POST, PUT, PATCH, DELETE): write-effects.spec.ts fails without it. */
  effect?: WriteEffect;
  /**
   * Answers with these statuses changed nothing any reader can see (an executor's poll that found
   * no work, a heartbeat): they advance no epoch and leave the audit trail alone.
   */
  unchangedWhen?: number[];
  /** The OpenAPI shape of a JSON:API route (the helpers of common/jsonapi/openapi.ts, same arguments). */
  show?: Parameters<typeof ApiShow>;
  list?: Parameters<typeof ApiList>;
  create?: Parameters<typeof ApiCreate>;
  update?: Parameters<typeof ApiUpdate>;
  /** `true`, or the error statuses it may answer besides 401 and 404. */
  delete?: true | number[];
  /** The member type of a relationship route taking an identifier array. */
  relationship?: string;
}

/** The options of a route's Endpoint, on its handler. */
export const ENDPOINT = 'plinth:endpoint';

/**
 * A route's one composite decorator: its kind of authentication, its write effect and its OpenAPI
 * shape. Routes without credentials (`public`, `signed-link`) declare `security: []` in the
 * OpenAPI document; all others the bearer token. A `signed-link` route's path ends in `:token`.
 *
 *   @Post()
 *   @Endpoint({ effect: 'leaves-access-alone', create: [PROJECT_DOC, PROJECT_BODY] })
 */
export function Endpoint(options: EndpointOptions = {}): MethodDecorator {
  const auth = options.auth ?? 'user';
  const decorators: MethodDecorator[] = [SetMetadata(ENDPOINT, options), SetMetadata(AUTH_KIND, auth)];
  if (auth === 'public' || auth === 'signed-link') decorators.push(PublicDocs());
  // The signed-link strategy reads the token from the path: the handler names no `@Param` for it.
  if (auth === 'signed-link')
    decorators.push(ApiParam({ name: 'token', required: true, schema: { type: 'string' } }));
  if (options.effect)
    decorators.push(SetMetadata(LEAVES_ACCESS_ALONE, options.effect === 'leaves-access-alone'));
  if (options.unchangedWhen) decorators.push(SetMetadata(UNCHANGED_WHEN, options.unchangedWhen));
  if (options.show) decorators.push(ApiShow(...options.show));
  if (options.list) decorators.push(ApiList(...options.list));
  if (options.create) decorators.push(ApiCreate(...options.create));
  if (options.update) decorators.push(ApiUpdate(...options.update));
  if (options.delete) decorators.push(ApiDelete(options.delete === true ? [] : options.delete));
  if (options.relationship) decorators.push(ApiRelationship(options.relationship));
  return applyDecorators(...decorators);
}
