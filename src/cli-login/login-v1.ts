/**
 * The `login.v1` service of the discovery document: `terraform login` opens `authz` in a browser
 * with an authorization-code request (PKCE, S256), listens on `http://localhost:<port>/login` for a
 * port in `ports`, and exchanges the code at `token` for the user token it stores.
 */
export const CLI_CLIENT_ID = 'terraform-cli';

/** The loopback ports the CLI may listen on, both ends included. */
export const LOGIN_PORTS = [10000, 10010] as const;

export const AUTHORIZE_ROUTE = 'app/oauth/authorize';
export const TOKEN_ROUTE = 'oauth/token';

export const LOGIN_V1 = {
  client: CLI_CLIENT_ID,
  grant_types: ['authz_code'],
  authz: `/${AUTHORIZE_ROUTE}`,
  token: `/${TOKEN_ROUTE}`,
  ports: [...LOGIN_PORTS],
};

/** How long a code is good for once issued: the CLI exchanges it at once. */
export const CODE_TTL_SECONDS = 300;

/** How long a sign-in page may be left open before its form must be loaded again. */
export const FORM_TTL_SECONDS = 1800;

/** The description of the user tokens the exchange issues (how they show in the user's token list). */
export const CLI_TOKEN_DESCRIPTION = 'terraform login';
