import { ServerProcess } from '../helpers/server-process';

jest.setTimeout(180_000);

interface Line {
  level: number;
  msg: string;
}

/** Starts `src/main.ts` with `env`, waits for it to give up, and returns its output as parsed lines. */
async function failedStart(env: Record<string, string>): Promise<{ code: number | null; lines: Line[] }> {
  const server = await ServerProcess.start('src/main.ts', env);
  try {
    const { code } = await server.exited;
    const output = server.lines.filter((l) => l.trim() !== '');
    for (const l of output) expect(() => JSON.parse(l) as unknown).not.toThrow();
    return { code, lines: output.map((l) => JSON.parse(l) as Line) };
  } finally {
    await server.dispose();
  }
}

describe('a server that cannot start', () => {
  it.each([
    [
      'a signing secret that is too short',
      { SIGNING_SECRET: 'short' },
      'Plinth did not start because its configuration is invalid: SIGNING_SECRET must be at least 32 bytes long, got 5; generate one with `openssl rand -hex 32`.',
    ],
    [
      'a value that is not a number',
      { RATE_LIMIT_PER_SECOND: 'fast' },
      'Plinth did not start because its configuration is invalid: RATE_LIMIT_PER_SECOND must be a whole number, got "fast".',
    ],
  ])('logs %s as JSON and ends with one sentence that says what to fix', async (_, env, sentence) => {
    const { code, lines } = await failedStart(env);
    expect(code).toBe(1);
    expect(lines.at(-1)).toMatchObject({ level: 60, msg: sentence });
    expect(JSON.stringify(lines)).not.toContain('\u001b[');
  });

  it('logs an unreachable database as JSON, without colours, and ends with one sentence naming the cause', async () => {
    const { code, lines } = await failedStart({
      DATABASE_URL: 'mariadb://root@127.0.0.1:1/plinth',
      DB_CONNECT_RETRIES: '1',
    });
    expect(code).toBe(1);
    expect(lines.at(-1)).toMatchObject({
      level: 60,
      msg:
        'Plinth did not start because the database could not be reached (ECONNREFUSED); ' +
        'check DATABASE_URL and that the database is running.',
    });
    expect(lines.filter((l) => /Retrying/.test(l.msg))).toHaveLength(1);
    expect(JSON.stringify(lines)).not.toContain('\u001b[');
  });
});
