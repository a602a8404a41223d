import { redactUrl, REDACTED } from './http-logging';

describe('redactUrl', () => {
  it('hides the capability of a signed upload or download link', () => {
    expect(redactUrl('/uploads/eyJwIjoi.c2ln')).toBe(`/uploads/${REDACTED}`);
    expect(redactUrl('/uploads/eyJwIjoi.c2ln?x=1')).toBe(`/uploads/${REDACTED}?x=1`);
  });

  it('hides every token-like query value, however often it repeats', () => {
    expect(redactUrl('/admin/initial-admin-user?token=abc&token=def&page=2')).toBe(
      `/admin/initial-admin-user?token=${REDACTED}&token=${REDACTED}&page=2`,
    );
    expect(redactUrl('/x?access_token=abc&signature=s')).toBe(
      `/x?access_token=${REDACTED}&signature=${REDACTED}`,
    );
  });

  it('leaves ordinary paths and queries alone', () => {
    const url = '/api/v2/organizations/acme/workspaces?page%5Bnumber%5D=2&search%5Bname%5D=tok';
    expect(redactUrl(url)).toBe(url);
  });
});
