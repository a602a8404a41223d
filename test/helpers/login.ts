import { IncomingHttpHeaders } from 'node:http';
import { send } from './raw-http';
import { JSONAPI, TestApp } from './test-app';

/** The password `createUser` gives every user. */
export const PASSWORD = 'a-long-password';

export interface LoginAnswer {
  status: number;
  headers: IncomingHttpHeaders;
  body: {
    data: { id: string; attributes: Record<string, string> };
    errors: Record<string, string>[];
  };
}

/** `POST /api/v2/login` from a chosen loopback address (each address is a client of its own). */
export async function loginFrom(
  t: Pick<TestApp, 'origin'>,
  from: string,
  attributes: Record<string, unknown>,
): Promise<LoginAnswer> {
  const res = await send(t.origin, {
    method: 'POST',
    path: '/api/v2/login',
    localAddress: from,
    headers: { 'Content-Type': JSONAPI },
    body: JSON.stringify({ data: { type: 'authentication-tokens', attributes } }),
  });
  return { status: res.status, headers: res.headers, body: JSON.parse(res.text) as LoginAnswer['body'] };
}
