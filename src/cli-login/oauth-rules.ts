import { createHash, timingSafeEqual } from 'node:crypto';
import { CLI_CLIENT_ID, LOGIN_PORTS } from './login-v1';

/** What the CLI sends to the sign-in page, once checked. */
export interface AuthorizeRequest {
  clientId: string;
  redirectUri: string;
  state: string;
  codeChallenge: string;
}

export type Checked<T> = { ok: true; value: T } | { ok: false; error: string };

/** base64url without padding of 32 bytes. */
const CHALLENGE = /^[A-Za-z0-9_-]{43}$/;
/** RFC 7636 §4.1: 43 to 128 unreserved characters. */
const VERIFIER = /^[A-Za-z0-9._~-]{43,128}$/;
const MAX_STATE = 512;

function one(params: Record<string, unknown>, name: string): string | undefined {
  const value = params[name];
  return typeof value === 'string' ? value : undefined;
}

/**
 * The redirect URI exactly as the CLI builds it: `http://localhost:<port>/login`, the port a
 * decimal in the advertised range without leading zeros, nothing else (no query, no trailing slash).
 */
export function isCliRedirectUri(uri: string): boolean {
  const m = /^http:\/\/localhost:([1-9]\d{0,4})\/login$/.exec(uri);
  if (!m) return false;
  const port = Number(m[1]);
  return port >= LOGIN_PORTS[0] && port <= LOGIN_PORTS[1];
}

/**
 * The parameters of an authorization request (query of the page, hidden fields of its form). The
 * client and redirect URI are checked first: while they are not the CLI's, nothing may be sent to
 * the redirect URI, and the page says what is wrong instead.
 */
export function checkAuthorizeRequest(params: Record<string, unknown>): Checked<AuthorizeRequest> {
  const clientId = one(params, 'client_id');
  if (clientId !== CLI_CLIENT_ID) return { ok: false, error: `client_id must be ${CLI_CLIENT_ID}.` };
  const redirectUri = one(params, 'redirect_uri');
  if (!redirectUri || !isCliRedirectUri(redirectUri)) {
    return {
      ok: false,
      error: `redirect_uri must be http://localhost:PORT/login with PORT from ${LOGIN_PORTS[0]} to ${LOGIN_PORTS[1]}.`,
    };
  }
  if (one(params, 'response_type') !== 'code') return { ok: false, error: 'response_type must be code.' };
  const state = one(params, 'state');
  if (!state || state.length > MAX_STATE) {
    return { ok: false, error: `state is required (at most ${MAX_STATE} characters).` };
  }
  if (one(params, 'code_challenge_method') !== 'S256') {
    return { ok: false, error: 'code_challenge_method must be S256 (PKCE); plain is not accepted.' };
  }
  const codeChallenge = one(params, 'code_challenge');
  if (!codeChallenge || !CHALLENGE.test(codeChallenge)) {
    return {
      ok: false,
      error: 'code_challenge must be the base64url SHA-256 of the code verifier (43 characters).',
    };
  }
  return { ok: true, value: { clientId, redirectUri, state, codeChallenge } };
}

/** RFC 7636 S256: base64url(SHA-256(verifier)). */
export function s256(verifier: string): string {
  return createHash('sha256').update(verifier, 'ascii').digest('base64url');
}

/** Whether the verifier is well formed and hashes to the challenge (compared in constant time). */
export function verifierMatches(verifier: string, challenge: string): boolean {
  if (!VERIFIER.test(verifier)) return false;
  const a = Buffer.from(s256(verifier));
  const b = Buffer.from(challenge);
  return a.length === b.length && timingSafeEqual(a, b);
}

/** Where the browser goes after a successful sign-in: the redirect URI with the code and the state. */
export function callbackUrl(request: AuthorizeRequest, code: string): string {
  const url = new URL(request.redirectUri);
  url.searchParams.set('code', code);
  url.searchParams.set('state', request.state);
  return url.toString();
}

/** The SHA-256 digest a code is stored under (hex). */
export function codeDigest(code: string): string {
  return createHash('sha256').update(code).digest('hex');
}
