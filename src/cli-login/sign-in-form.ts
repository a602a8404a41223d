import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { AuthorizeRequest } from './oauth-rules';

/**
 * The sign-in form's protection against cross-site submission. The page sets a random nonce in a
 * cookie (HttpOnly, SameSite=Strict, path of the page) and puts in the form a token that signs,
 * with the server's signing secret, that nonce, an expiry and every parameter of the authorization
 * request. A submission is accepted only with both, matching, before the expiry: another site can
 * neither read the token nor send the cookie, and a token is good only for the request it was made
 * for.
 */
export const FORM_COOKIE = 'plinth_cli_login';

const NONCE = /^[A-Za-z0-9_-]{22,64}$/;

export function newNonce(): string {
  return randomBytes(24).toString('base64url');
}

/** A nonce from the cookie, when it is one this page could have set. */
export function usableNonce(value: unknown): string | undefined {
  return typeof value === 'string' && NONCE.test(value) ? value : undefined;
}

function mac(secret: string, nonce: string, expires: number, req: AuthorizeRequest): string {
  const payload = [
    'cli-login-form',
    nonce,
    expires,
    req.clientId,
    req.redirectUri,
    req.state,
    req.codeChallenge,
  ];
  return createHmac('sha256', secret).update(payload.join('\n')).digest('base64url');
}

/** `<expiry in epoch seconds>.<signature>` */
export function formToken(secret: string, nonce: string, req: AuthorizeRequest, expiresAt: Date): string {
  const expires = Math.floor(expiresAt.getTime() / 1000);
  return `${expires}.${mac(secret, nonce, expires, req)}`;
}

export type FormCheck = 'ok' | 'missing' | 'invalid' | 'expired';

export function checkFormToken(
  secret: string,
  nonce: string | undefined,
  token: unknown,
  req: AuthorizeRequest,
  now: Date,
): FormCheck {
  if (!nonce || typeof token !== 'string' || token === '') return 'missing';
  const m = /^(\d{1,12})\.([A-Za-z0-9_-]{43})$/.exec(token);
  if (!m) return 'invalid';
  const expires = Number(m[1]);
  const expected = Buffer.from(mac(secret, nonce, expires, req));
  const given = Buffer.from(m[2]);
  if (expected.length !== given.length || !timingSafeEqual(expected, given)) return 'invalid';
  return expires * 1000 > now.getTime() ? 'ok' : 'expired';
}
