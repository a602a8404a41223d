import { DEFAULT_COMMANDS, DEFAULT_POLICY_COMMANDS, OptionsError, parseOptions } from './options';

const defaults = { hostname: 'box-1', tmpdir: '/tmp' };

describe('parseOptions', () => {
  it('reads flags in both spellings and fills in the defaults', () => {
    const o = parseOptions(['--url', 'https://plinth.test/', '--token=secret'], {}, defaults);
    expect(o).toEqual({
      url: 'https://plinth.test',
      token: 'secret',
      name: 'box-1',
      commands: DEFAULT_COMMANDS,
      policyCommands: DEFAULT_POLICY_COMMANDS,
      workDir: '/tmp',
      maxJobs: 0,
      reportTimeoutSeconds: 120,
    });
  });

  it('takes the environment when a flag is absent, and lets a flag win', () => {
    const env = { PLINTH_URL: 'http://a.test', PLINTH_AGENT_TOKEN: 't', PLINTH_PLAN_COMMAND: 'env-plan' };
    const o = parseOptions(
      ['--plan-command', 'flag-plan', '--max-jobs', '2', '--report-timeout=600'],
      env,
      defaults,
    );
    expect(o.url).toBe('http://a.test');
    expect(o.commands.plan).toBe('flag-plan');
    expect(o.maxJobs).toBe(2);
    expect(o.reportTimeoutSeconds).toBe(600);
    expect(parseOptions([], env, defaults).commands.plan).toBe('env-plan');
  });

  it('takes an engine command per policy kind from flags or the environment', () => {
    const env = { PLINTH_URL: 'http://a.test', PLINTH_AGENT_TOKEN: 't', PLINTH_FRAMEWORK_B_COMMAND: 'env-b' };
    const o = parseOptions(['--framework-a-command', 'flag-a'], env, defaults);
    expect(o.policyCommands).toEqual({ framework_a: 'flag-a', framework_b: 'env-b' });
  });

  it('keeps an = inside a command given inline', () => {
    const o = parseOptions(['--url=http://a.test', '--token=t', '--show-command=X=1 show'], {}, defaults);
    expect(o.commands.show).toBe('X=1 show');
  });

  it('refuses missing, unknown and malformed arguments', () => {
    expect(() => parseOptions(['--token', 't'], {}, defaults)).toThrow(OptionsError);
    expect(() => parseOptions(['--url', 'http://a.test'], {}, defaults)).toThrow('--token');
    expect(() => parseOptions(['--url', 'ftp://a', '--token', 't'], {}, defaults)).toThrow('http(s)');
    expect(() => parseOptions(['--url', 'http://a', '--token', 't', '--colour'], {}, defaults)).toThrow(
      'unknown argument --colour',
    );
    expect(() => parseOptions(['--url', 'http://a', '--token'], {}, defaults)).toThrow('needs a value');
    expect(() => parseOptions(['--url=http://a', '--token=t', '--max-jobs=x'], {}, defaults)).toThrow(
      'whole number',
    );
    expect(() => parseOptions(['--url=http://a', '--token=t', '--report-timeout=0'], {}, defaults)).toThrow(
      '--report-timeout must be a positive number of seconds, got 0',
    );
  });
});
