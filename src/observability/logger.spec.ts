import { Writable } from 'node:stream';
import { QueryFailedError } from 'typeorm';
import { createLogger, redactCapabilities, REDACTED } from './logger';

const TOKEN = `eyJwIjoidGVzdCIsInIiOiJyIiwiZSI6MX0.${'a'.repeat(20)}_-${'B'.repeat(21)}`;

describe('redactCapabilities', () => {
  it('hides the capability of a signed upload or download link', () => {
    expect(redactCapabilities('/uploads/eyJwIjoi.c2ln')).toBe(`/uploads/${REDACTED}`);
    expect(redactCapabilities('/uploads/eyJwIjoi.c2ln?x=1')).toBe(`/uploads/${REDACTED}?x=1`);
    expect(redactCapabilities(`GET https://up.example.com/uploads/${TOKEN} failed`)).toBe(
      `GET https://up.example.com/uploads/${REDACTED} failed`,
    );
  });

  it('hides a link token quoted without its path', () => {
    expect(redactCapabilities(`token ${TOKEN} rejected`)).toBe(`token ${REDACTED} rejected`);
  });

  it('hides every token-like query value, however often it repeats', () => {
    expect(redactCapabilities('/admin/initial-admin-user?token=abc&token=def&page=2')).toBe(
      `/admin/initial-admin-user?token=${REDACTED}&token=${REDACTED}&page=2`,
    );
    expect(redactCapabilities('/x?access_token=abc&signature=s')).toBe(
      `/x?access_token=${REDACTED}&signature=${REDACTED}`,
    );
  });

  it('leaves a placeholder alone where a value stands wholly for one, as in a command to copy', () => {
    const hint = 'curl -X POST "http://127.0.0.1:3000/admin/initial-admin-user?token=<IACT>" -d {}';
    expect(redactCapabilities(hint)).toBe(hint);
    expect(redactCapabilities('/x?token=<IACT>&page=2')).toBe('/x?token=<IACT>&page=2');
    expect(redactCapabilities('/x?token=<IACT>abc')).toBe(`/x?token=${REDACTED}`);
    expect(redactCapabilities('/x?token=abc<IACT>')).toBe(`/x?token=${REDACTED}`);
  });

  it('stops at the end of a JSON string value', () => {
    expect(redactCapabilities(`{"url":"/uploads/${TOKEN}","path":"/x?token=abc","n":1}`)).toBe(
      `{"url":"/uploads/${REDACTED}","path":"/x?token=${REDACTED}","n":1}`,
    );
  });

  it('leaves ordinary paths and queries alone', () => {
    const url = '/api/v2/organizations/acme/workspaces?page%5Bnumber%5D=2&search%5Bname%5D=tok';
    expect(redactCapabilities(url)).toBe(url);
  });
});

describe('createLogger', () => {
  const capture = () => {
    const lines: string[] = [];
    const stream = new Writable({
      write(chunk: Buffer, _enc, done) {
        lines.push(chunk.toString());
        done();
      },
    });
    return { lines, logger: createLogger('trace', stream) };
  };

  it('redacts capabilities in the message and in every field, at every level', () => {
    const { lines, logger } = capture();
    logger.trace({ path: `/uploads/${TOKEN}` }, 'trace');
    logger.warn(`database unavailable during PUT /uploads/${TOKEN}`);
    logger.error({ err: new Error(`cannot fetch /uploads/${TOKEN}`) }, 'failed');
    expect(lines).toHaveLength(3);
    for (const line of lines) {
      expect(line).not.toContain(TOKEN.split('.')[1]);
      expect(line).toContain(`/uploads/${REDACTED}`);
    }
  });

  it('keeps type, message, stack and code of an error, never the bound parameters of a query', () => {
    const { lines, logger } = capture();
    const driverError = Object.assign(new Error('SQLITE_ERROR: boom'), { code: 'SQLITE_ERROR' });
    const err = new QueryFailedError('SELECT * FROM t WHERE secret = ?', ['hunter2-parameter'], driverError);
    logger.error({ err }, 'failed');
    const entry = JSON.parse(lines[0]) as { err: Record<string, unknown> };
    expect(entry.err).toEqual({
      type: 'QueryFailedError',
      message: 'SQLITE_ERROR: boom',
      stack: expect.any(String),
      code: 'SQLITE_ERROR',
    });
    expect(lines[0]).not.toContain('hunter2-parameter');
  });
});
