/**
 * How a route authenticates its caller (set by the route's `Endpoint`, read by AuthenticationGuard
 * and ChangeEpochGuard):
 * - `user`: an API token (user, team or organization) in `Authorization: Bearer`, passport's
 *   `bearer` strategy: the default for every route;
 * - `agent`: an agent token and `X-Plinth-Agent` naming an agent of its pool (`agent-token`);
 * - `agent-registration`: an agent token alone, before the executor has an agent id;
 * - `signed-link`: the signed token in the path is the credential (`signed-link`);
 * - `public`: no credential at all.
 */
export type AuthKind = 'user' | 'agent' | 'agent-registration' | 'signed-link' | 'public';

export const AUTH_KIND = 'plinth:auth-kind';

/** The passport strategies behind the kinds that present a credential. */
export const AUTH_STRATEGY = {
  user: 'bearer',
  agent: 'agent-token',
  'agent-registration': 'agent-token',
  'signed-link': 'signed-link',
} as const;

/** Where each kind's strategy leaves what it authenticated on the request. */
export const AUTH_PROPERTY = {
  user: 'user',
  agent: 'agent',
  'agent-registration': 'agentToken',
  'signed-link': 'signedLink',
} as const;
