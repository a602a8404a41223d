import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { validate } from 'dockerfile-utils';
import { parse } from 'yaml';
import { AppConfig } from '../../src/config/app-config';
import { ROOT } from '../helpers/server-process';

/**
 * The image's build file and the compose file, checked without a Docker engine: a Dockerfile
 * linter (dockerfile-utils, the VS Code Docker extension's validator) plus the hadolint rules that
 * apply to this file, a compose linter (dclint: the compose-spec schema and its best-practice
 * rules), what the compose file promises operators, and `docker compose config` / `hadolint` where
 * this machine has them.
 */
const DOCKERFILE = readFileSync(join(ROOT, 'docker/Dockerfile'), 'utf8');
const COMPOSE_TEXT = readFileSync(join(ROOT, 'docker/docker-compose.yml'), 'utf8');
const ENV_EXAMPLE = readFileSync(join(ROOT, 'docker/compose.env.example'), 'utf8');

interface Instruction {
  line: number;
  keyword: string;
  args: string;
}

/** Instructions with their continuation lines joined; comments and blank lines left out. */
function instructions(text: string): Instruction[] {
  const out: Instruction[] = [];
  let pending: Instruction | undefined;
  text.split('\n').forEach((raw, i) => {
    const line = raw.trim();
    if (!pending && (line === '' || line.startsWith('#'))) return;
    if (pending) pending.args += ` ${line.replace(/\\$/, '').trim()}`;
    else {
      const [keyword, ...rest] = line.replace(/\\$/, '').split(/\s+/);
      pending = { line: i + 1, keyword: keyword.toUpperCase(), args: rest.join(' ') };
    }
    if (!line.endsWith('\\')) {
      out.push(pending);
      pending = undefined;
    }
  });
  return out;
}

describe('docker/Dockerfile', () => {
  const all = instructions(DOCKERFILE);
  const args = new Map(
    all.filter((i) => i.keyword === 'ARG').map((i) => i.args.split('=') as [string, string | undefined]),
  );
  const stages = all.filter((i) => i.keyword === 'FROM').map((i) => i.args.split(/\s+AS\s+/i));
  const runtime = all.slice(all.findIndex((i) => i.keyword === 'FROM' && /AS runtime$/i.test(i.args)));

  it('passes the Dockerfile validator', () => {
    const problems = validate(DOCKERFILE).map(
      (d) => `line ${d.range.start.line + 1}: ${typeof d.message === 'string' ? d.message : d.message.value}`,
    );
    expect(problems).toEqual([]);
  });

  it('follows the hadolint rules that apply to it', () => {
    const problems: string[] = [];
    const names = new Set(stages.map(([, name]) => name));
    for (const [image] of stages) {
      const resolved = image.replace(/^\$\{(\w+)\}$/, (_, name: string) => args.get(name) ?? '');
      // DL3006 / DL3007: every base image has an explicit tag, and not `latest`.
      if (!names.has(image) && !/^[^:]+:(?!latest$)[\w.-]+$/.test(resolved))
        problems.push(`DL3006/DL3007: base image ${image} (${resolved}) needs an explicit version tag`);
    }
    for (const i of all) {
      const at = `line ${i.line}`;
      if (i.keyword === 'ADD') problems.push(`DL3020 ${at}: use COPY instead of ADD`);
      if (i.keyword === 'RUN' && /apt-get install/.test(i.args)) {
        if (!/--no-install-recommends/.test(i.args)) problems.push(`DL3015 ${at}: --no-install-recommends`);
        if (!/-y\b/.test(i.args)) problems.push(`DL3014 ${at}: apt-get install needs -y`);
        if (!/rm -rf \/var\/lib\/apt\/lists/.test(i.args))
          problems.push(`DL3009 ${at}: delete the apt lists`);
      }
      if (i.keyword === 'RUN' && /\|/.test(i.args.replace(/\|\|/g, '')) && !/pipefail/.test(i.args))
        problems.push(`DL4006 ${at}: set -o pipefail before a pipe`);
      if (i.keyword === 'RUN' && /\bsudo\b/.test(i.args)) problems.push(`DL3004 ${at}: no sudo`);
      if (i.keyword === 'RUN' && /\bcd\s/.test(i.args)) problems.push(`DL3003 ${at}: use WORKDIR, not cd`);
      if (['CMD', 'ENTRYPOINT'].includes(i.keyword) && !i.args.startsWith('['))
        problems.push(`DL3025 ${at}: ${i.keyword} in JSON form`);
      if (i.keyword === 'HEALTHCHECK' && !/CMD \[/.test(i.args)) problems.push(`DL3025 ${at}: JSON form`);
    }
    const users = runtime.filter((i) => i.keyword === 'USER');
    // DL3002: the image does not run as root.
    if (users.length === 0 || /^(root|0)$/.test(users[users.length - 1].args))
      problems.push('DL3002: the last USER of the runtime stage must not be root');
    expect(problems).toEqual([]);
  });

  it('runs on a Node.js LTS line that package.json supports, with dist/ (server, tools, executor)', () => {
    const image = args.get('NODE_IMAGE') ?? '';
    const major = Number(/^node:(\d+)-/.exec(image)?.[1]);
    expect(major % 2).toBe(0); // even majors are the LTS lines
    expect(major).toBeGreaterThanOrEqual(22);
    const engines = (
      JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { engines: { node: string } }
    ).engines.node;
    expect(engines.split('||').map((r) => r.trim())).toContainEqual(
      expect.stringMatching(`^(>=|\\^)${major}\\.`),
    );
    expect(runtime.map((i) => `${i.keyword} ${i.args}`)).toEqual(
      expect.arrayContaining([
        'COPY --from=prod-deps /app/node_modules ./node_modules',
        'COPY --from=build /app/dist ./dist',
        'CMD ["node", "dist/main.js"]',
      ]),
    );
  });
});

type Service = { environment?: Record<string, string>; ports?: unknown[]; image?: string; build?: unknown };
const compose = parse(COMPOSE_TEXT) as { services: Record<string, Service> };

/** What `docker compose` makes of a value: `${X:?msg}` and `${X}` from `env`, `${X:-d}` with its default. */
function interpolate(value: string, env: Record<string, string>): string {
  return value.replace(/\$\{(\w+)(?::([?-])([^}]*))?\}/g, (_, name: string, op?: string, rest?: string) => {
    if (env[name]) return env[name];
    if (op === '?') throw new Error(`${name} is required: ${rest}`);
    return op === '-' ? (rest ?? '') : '';
  });
}

describe('docker/docker-compose.yml', () => {
  const variables = [...new Set([...COMPOSE_TEXT.matchAll(/\$\{(\w+)/g)].map((m) => m[1]))].sort();
  const REQUIRED = ['BASE_URL', 'MYSQL_PASSWORD', 'MYSQL_ROOT_PASSWORD'];
  const sample: Record<string, string> = {
    MYSQL_PASSWORD: 'p@ss:w/rd#?%& "x"',
    MYSQL_ROOT_PASSWORD: 'root-secret',
    BASE_URL: 'https://plinth.example.com',
  };

  it('passes the compose linter (schema and rules), warnings included', () => {
    const res = spawnSync(
      process.execPath,
      [join(ROOT, 'node_modules/dclint/bin/dclint.cjs'), 'docker/docker-compose.yml', '--max-warnings', '0'],
      { cwd: ROOT, encoding: 'utf8', env: { ...process.env, NO_COLOR: '1' } },
    );
    expect(`${res.stdout}${res.stderr}`.trim()).toBe('');
    expect(res.status).toBe(0);
  });

  it('has no default password: every password and BASE_URL is required, nothing else is', () => {
    const required = [...COMPOSE_TEXT.matchAll(/\$\{(\w+):\?/g)].map((m) => m[1]);
    expect([...new Set(required)].sort()).toEqual(REQUIRED);
    for (const [name, service] of Object.entries(compose.services)) {
      for (const [key, value] of Object.entries(service.environment ?? {})) {
        if (!/PASSWORD/.test(key)) continue;
        expect(`${name}.${key}=${value}`).toMatch(/=\$\{MYSQL(_ROOT)?_PASSWORD:\?[^}]+\}$/);
      }
    }
    for (const name of REQUIRED) {
      expect(() => interpolate(COMPOSE_TEXT, { ...sample, [name]: '' })).toThrow(`${name} is required`);
    }
  });

  it('puts no password into a URL, and Plinth accepts the environment compose gives it', () => {
    const env = Object.fromEntries(
      Object.entries(compose.services.plinth.environment ?? {}).map(([k, v]) => [k, interpolate(v, sample)]),
    );
    expect(new URL(env.DATABASE_URL).password).toBe('');
    expect(env.DATABASE_PASSWORD).toBe(sample.MYSQL_PASSWORD);
    const mysql = compose.services.mysql.environment ?? {};
    const config = new AppConfig({ ...env, SIGNING_SECRET: 'x'.repeat(32) });
    expect(config.mysql).toEqual({
      scheme: 'mysql',
      host: 'mysql',
      port: 3306,
      user: mysql.MYSQL_USER,
      password: sample.MYSQL_PASSWORD,
      database: mysql.MYSQL_DATABASE,
    });
    expect(config.baseUrl).toBe(sample.BASE_URL);
  });

  it('explains BASE_URL and UPLOAD_URL at the top and lists every variable in compose.env.example', () => {
    const header = COMPOSE_TEXT.slice(0, COMPOSE_TEXT.indexOf('\nname:'));
    for (const name of variables) expect(header).toContain(`#   ${name} `);
    // Comment lines only (`.` stops at a line's end): `\s+` here backtracked for two minutes.
    expect(header).toMatch(/BASE_URL .*\n(?:#.*\n)*?#.*links/);
    const example = [...ENV_EXAMPLE.matchAll(/^(\w+)=/gm)].map((m) => m[1]).sort();
    expect(example).toEqual(variables);
    for (const name of REQUIRED) expect(ENV_EXAMPLE).toMatch(new RegExp(`^${name}=$`, 'm'));
  });

  it('publishes the port on a chosen interface, loopback unless told otherwise', () => {
    expect(compose.services.plinth.ports).toEqual([
      {
        target: 3000,
        published: '${PLINTH_PORT:-3000}',
        host_ip: '${PLINTH_BIND:-127.0.0.1}',
        protocol: 'tcp',
      },
    ]);
  });

  const composeClient = spawnSync('docker', ['compose', 'version'], { encoding: 'utf8' }).status === 0;
  if (!composeClient) {
    it.skip('`docker compose config` (no Compose v2 client on this machine)', () => undefined);
  } else {
    it('is read by `docker compose config`', () => {
      const res = spawnSync('docker', ['compose', '-f', 'docker/docker-compose.yml', 'config', '--quiet'], {
        cwd: ROOT,
        encoding: 'utf8',
        env: { ...process.env, ...sample },
      });
      expect(res.stderr).toBe('');
      expect(res.status).toBe(0);
    });
  }

  const hadolint = spawnSync('hadolint', ['--version'], { encoding: 'utf8' }).status === 0;
  (hadolint ? it : it.skip)(`hadolint${hadolint ? '' : ' (not installed on this machine)'}`, () => {
    // DL3008 (pin apt package versions) is left out: the toolchain stage only builds, its packages
    // do not ship, and a pinned Debian version breaks the build at Debian's next point release.
    const res = spawnSync('hadolint', ['--ignore', 'DL3008', 'docker/Dockerfile'], {
      cwd: ROOT,
      encoding: 'utf8',
    });
    expect(res.stdout).toBe('');
    expect(res.status).toBe(0);
  });
});
