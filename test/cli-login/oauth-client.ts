import { createHash, randomBytes } from 'node:crypto';

/**
 * A plain OAuth 2.0 client doing what `terraform login` does (authorization code with PKCE S256,
 * loopback redirect URI), over `fetch`, with the browser's part (the sign-in form and its cookie)
 * done by hand.
 */

export const CLIENT_ID = 'terraform-cli';

export interface Pkce {
  verifier: string;
  challenge: string;
}

export function newPkce(): Pkce {
  const verifier = randomBytes(32).toString('base64url');
  return { verifier, challenge: createHash('sha256').update(verifier).digest('base64url') };
}

export interface AuthorizeParams {
  response_type: string;
  client_id: string;
  redirect_uri: string;
  state: string;
  code_challenge: string;
  code_challenge_method: string;
}

export function authorizeParams(pkce: Pkce, overrides: Partial<AuthorizeParams> = {}): AuthorizeParams {
  return {
    response_type: 'code',
    client_id: CLIENT_ID,
    redirect_uri: 'http://localhost:10000/login',
    state: randomBytes(8).toString('hex'),
    code_challenge: pkce.challenge,
    code_challenge_method: 'S256',
    ...overrides,
  };
}

export interface Answer {
  status: number;
  headers: Headers;
  text: string;
}

async function answer(res: Response): Promise<Answer> {
  return { status: res.status, headers: res.headers, text: await res.text() };
}

export function authorizeUrl(origin: string, params: Record<string, string>): string {
  return `${origin}/app/oauth/authorize?${new URLSearchParams(params).toString()}`;
}

/** The sign-in page, as a browser opens it (no cookie yet, unless given). */
export async function openPage(
  origin: string,
  params: Record<string, string>,
  cookie?: string,
): Promise<Answer> {
  return answer(
    await fetch(authorizeUrl(origin, params), { redirect: 'manual', headers: cookie ? { cookie } : {} }),
  );
}

/** The `name=value` of the form cookie the page set. */
export function formCookie(page: Answer): string {
  const set = page.headers.get('set-cookie') ?? '';
  return set.split(';')[0];
}

/** The hidden fields of the page's form, as the browser would send them. */
export function hiddenFields(html: string): Record<string, string> {
  const fields: Record<string, string> = {};
  for (const m of html.matchAll(/<input type="hidden" name="([^"]+)" value="([^"]*)">/g)) {
    fields[m[1]] = m[2].replace(/&#(\d+);/g, (_s, code: string) => String.fromCharCode(Number(code)));
  }
  return fields;
}

export async function submitForm(
  origin: string,
  fields: Record<string, string>,
  cookie?: string,
): Promise<Answer> {
  const headers: Record<string, string> = { 'content-type': 'application/x-www-form-urlencoded' };
  if (cookie) headers.cookie = cookie;
  return answer(
    await fetch(`${origin}/app/oauth/authorize`, {
      method: 'POST',
      redirect: 'manual',
      headers,
      body: new URLSearchParams(fields).toString(),
    }),
  );
}

/** Opens the page and signs in: the answer to the form's submission. */
export async function signIn(
  origin: string,
  params: AuthorizeParams,
  username: string,
  password: string,
): Promise<Answer> {
  const page = await openPage(origin, { ...params });
  if (page.status !== 200) throw new Error(`the sign-in page answered ${page.status}: ${page.text}`);
  return submitForm(origin, { ...hiddenFields(page.text), username, password }, formCookie(page));
}

/** The code and state of the redirect a successful sign-in answers. */
export function callback(signedIn: Answer): { url: URL; code: string; state: string } {
  const location = signedIn.headers.get('location');
  if (signedIn.status !== 302 || !location)
    throw new Error(`no redirect: ${signedIn.status} ${signedIn.text}`);
  const url = new URL(location);
  return { url, code: url.searchParams.get('code') ?? '', state: url.searchParams.get('state') ?? '' };
}

export interface TokenAnswer {
  status: number;
  headers: Headers;
  body: Record<string, unknown>;
}

export async function exchange(origin: string, form: Record<string, string>): Promise<TokenAnswer> {
  const res = await fetch(`${origin}/oauth/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' },
    body: new URLSearchParams(form).toString(),
  });
  return { status: res.status, headers: res.headers, body: (await res.json()) as Record<string, unknown> };
}

export function exchangeForm(code: string, pkce: Pkce, params: AuthorizeParams): Record<string, string> {
  return {
    grant_type: 'authorization_code',
    code,
    redirect_uri: params.redirect_uri,
    client_id: params.client_id,
    code_verifier: pkce.verifier,
  };
}
