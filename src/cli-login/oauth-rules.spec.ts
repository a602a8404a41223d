import { createHash } from 'node:crypto';
import { checkAuthorizeRequest, isCliRedirectUri, s256, verifierMatches } from './oauth-rules';
import { checkFormToken, formToken } from './sign-in-form';

describe('the CLI login rules', () => {
  it('accepts exactly the redirect URIs the CLI builds', () => {
    for (let port = 10000; port <= 10010; port++)
      expect(isCliRedirectUri(`http://localhost:${port}/login`)).toBe(true);
    for (const uri of [
      'http://localhost:9999/login',
      'http://localhost:10011/login',
      'http://localhost:010000/login',
      'http://localhost:10000/login/',
      'http://localhost:10000/login?a=b',
      'http://localhost:10000/login#x',
      'http://LOCALHOST:10000/login',
      'http://127.0.0.1:10000/login',
      'https://localhost:10000/login',
      'http://localhost/login',
      'http://localhost:10000@evil.example/login',
    ]) {
      expect(isCliRedirectUri(uri)).toBe(false);
    }
  });

  it('computes S256 as RFC 7636 appendix B does', () => {
    expect(s256('dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk')).toBe(
      'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM',
    );
    const verifier = 'x'.repeat(43);
    const challenge = createHash('sha256').update(verifier).digest('base64url');
    expect(verifierMatches(verifier, challenge)).toBe(true);
    expect(verifierMatches('y'.repeat(43), challenge)).toBe(false);
    expect(verifierMatches('x'.repeat(42), s256('x'.repeat(42)))).toBe(false); // too short to be a verifier
    expect(verifierMatches('x'.repeat(129), s256('x'.repeat(129)))).toBe(false);
  });

  it('refuses repeated parameters (an array is not a value)', () => {
    const base = {
      response_type: 'code',
      client_id: 'terraform-cli',
      redirect_uri: 'http://localhost:10000/login',
      state: 's',
      code_challenge: s256('v'.repeat(43)),
      code_challenge_method: 'S256',
    };
    expect(checkAuthorizeRequest(base).ok).toBe(true);
    expect(checkAuthorizeRequest({ ...base, state: ['a', 'b'] }).ok).toBe(false);
    expect(checkAuthorizeRequest({ ...base, state: 'x'.repeat(513) }).ok).toBe(false);
  });

  it('signs the form for one nonce, one request and a time', () => {
    const request = {
      clientId: 'terraform-cli',
      redirectUri: 'http://localhost:10000/login',
      state: 's',
      codeChallenge: s256('v'.repeat(43)),
    };
    const now = new Date('2026-01-01T00:00:00Z');
    const token = formToken('secret', 'nonce-nonce-nonce-nonce-1', request, new Date(now.getTime() + 60_000));
    expect(checkFormToken('secret', 'nonce-nonce-nonce-nonce-1', token, request, now)).toBe('ok');
    expect(checkFormToken('other', 'nonce-nonce-nonce-nonce-1', token, request, now)).toBe('invalid');
    expect(checkFormToken('secret', 'nonce-nonce-nonce-nonce-2', token, request, now)).toBe('invalid');
    expect(
      checkFormToken('secret', 'nonce-nonce-nonce-nonce-1', token, { ...request, state: 't' }, now),
    ).toBe('invalid');
    expect(checkFormToken('secret', undefined, token, request, now)).toBe('missing');
    expect(checkFormToken('secret', 'nonce-nonce-nonce-nonce-1', '', request, now)).toBe('missing');
    const later = new Date(now.getTime() + 60_000);
    expect(checkFormToken('secret', 'nonce-nonce-nonce-nonce-1', token, request, later)).toBe('expired');
    // The expiry is signed: moving it forward breaks the signature.
    const [exp, sig] = token.split('.');
    expect(
      checkFormToken('secret', 'nonce-nonce-nonce-nonce-1', `${Number(exp) + 3600}.${sig}`, request, later),
    ).toBe('invalid');
  });
});
