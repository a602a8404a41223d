import { mkdtemp, readFile, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { JobVariable } from '../runs/protocol/agent-protocol.types';
import {
  envVariables,
  hclString,
  maskSecrets,
  SecretMask,
  sensitiveValues,
  TFVARS_FILE,
  tfvarsContent,
  writeTfvars,
} from './job-variables';

const v = (over: Partial<JobVariable> & { key: string }): JobVariable => ({
  value: '',
  category: 'terraform',
  hcl: false,
  sensitive: false,
  ...over,
});

describe('hclString', () => {
  it('quotes a plain value as it is', () => {
    expect(hclString('eu-west-1')).toBe('"eu-west-1"');
  });

  it('escapes quotes, backslashes, newlines and template sequences', () => {
    expect(hclString('say "hi"')).toBe('"say \\"hi\\""');
    expect(hclString('C:\\temp\\')).toBe('"C:\\\\temp\\\\"');
    expect(hclString('a\nb\r\tc')).toBe('"a\\nb\\r\\tc"');
    expect(hclString('${var.x} and %{ if } and $5 and 100%')).toBe(
      '"$${var.x} and %%{ if } and $5 and 100%"',
    );
    expect(hclString('bell\u0007')).toBe('"bell\\u0007"');
  });
});

describe('tfvarsContent', () => {
  it('writes HCL values raw and the others as quoted strings, terraform variables only, in order', () => {
    expect(
      tfvarsContent([
        v({ key: 'region', value: 'eu-"west"-1' }),
        v({ key: 'TOKEN', value: 'x', category: 'env' }),
        v({ key: 'tags', value: '{ team = "infra" }', hcl: true }),
        v({ key: 'motd', value: 'line 1\nline ${2}' }),
      ]),
    ).toBe('region = "eu-\\"west\\"-1"\ntags = { team = "infra" }\nmotd = "line 1\\nline $${2}"\n');
  });

  it('is null without terraform variables', () => {
    expect(tfvarsContent([v({ key: 'HOME_DIR', category: 'env', value: '/x' })])).toBeNull();
    expect(tfvarsContent([])).toBeNull();
  });

  it('refuses a key the tool could not read, naming it', () => {
    expect(() => tfvarsContent([v({ key: 'not a name', value: '1' })])).toThrow('"not a name"');
  });

  it('is written to plinth.auto.tfvars, readable by its owner only', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'plinth-tfvars-'));
    try {
      await writeTfvars(dir, [v({ key: 'size', value: '3', hcl: true })]);
      expect(await readFile(join(dir, TFVARS_FILE), 'utf8')).toBe('size = 3\n');
      expect((await stat(join(dir, TFVARS_FILE))).mode & 0o777).toBe(0o600);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});

describe('envVariables', () => {
  it('takes the env variables only, values as they are', () => {
    expect(
      envVariables([
        v({ key: 'AWS_REGION', value: 'eu "1"', category: 'env' }),
        v({ key: 'region', value: 'x' }),
      ]),
    ).toEqual({ AWS_REGION: 'eu "1"' });
  });
});

describe('maskSecrets', () => {
  it('replaces every occurrence of every secret, longer ones first', () => {
    expect(maskSecrets('a hunter2 b hunter2hunter22', ['hunter2', 'hunter22'])).toBe('a *** b ******');
    expect(maskSecrets('nothing here', ['hunter2'])).toBe('nothing here');
    expect(maskSecrets('empty secrets mask nothing', [''])).toBe('empty secrets mask nothing');
  });

  it('takes the sensitive values of a job, longest first, without empty ones', () => {
    expect(
      sensitiveValues([
        v({ key: 'a', value: 'short', sensitive: true }),
        v({ key: 'b', value: 'much longer', sensitive: true, category: 'env' }),
        v({ key: 'c', value: 'plain' }),
        v({ key: 'd', value: '', sensitive: true }),
      ]),
    ).toEqual(['much longer', 'short']);
    expect(sensitiveValues(undefined)).toEqual([]);
  });
});

describe('SecretMask', () => {
  const stream = (secrets: string[], chunks: string[]) => {
    const mask = new SecretMask(secrets);
    const shown = chunks.map((c) => mask.push(c));
    return { shown, all: shown.join('') + mask.end() };
  };

  it('masks a value split across two chunks', () => {
    const { shown, all } = stream(['s3cr3t-value'], ['token: s3cr', '3t-value\n']);
    expect(all).toBe('token: ***\n');
    expect(shown.join('')).not.toContain('s3cr');
  });

  it('masks a value split across many chunks, and one whole in a chunk', () => {
    const { all } = stream(['abcdef'], ['x a', 'b', 'cd', 'ef y abcdef z ab']);
    expect(all).toBe('x *** y *** z ab');
  });

  it('holds back only what could begin a secret', () => {
    const mask = new SecretMask(['hunter2']);
    expect(mask.push('line one\nhun')).toBe('line one\n');
    expect(mask.push('gry\n')).toBe('hungry\n');
    expect(mask.end()).toBe('');
  });

  it('passes output through untouched without secrets', () => {
    expect(stream([], ['a', 'b']).shown).toEqual(['a', 'b']);
  });

  it('joins a character split between two chunks of bytes before masking, and passes bytes through without secrets', () => {
    const bytes = Buffer.from('pässwörd: geheim\n', 'utf8');
    const split = bytes.indexOf(Buffer.from('ä')) + 1; // inside the two bytes of "ä"
    const mask = new SecretMask(['geheim']);
    const shown =
      [mask.push(bytes.subarray(0, split)), mask.push(bytes.subarray(split))].join('') + mask.end();
    expect(shown).toBe('pässwörd: ***\n');

    const chunk = bytes.subarray(0, split);
    expect(new SecretMask([]).push(chunk)).toBe(chunk);
  });
});
