import { DEFAULT_COMMANDS, DEFAULT_POLICY_COMMANDS, OptionsError, parseOptions } from './options';

const files: Record<string, string> = { '/run/secrets/agent-token': 'file-secret\n', '/empty': ' \n' };
const defaults = {
  hostname: 'box-1',
  tmpdir: '/tmp',
  readFile(path: string): string {
    if (path in files) return files[path];
    throw Object.assign(new Error(`ENOENT: no such file, open '${path}'`), { code: 'ENOENT' });
  },
};
const parse = (argv: string[], env: Record<string, string> = {}) => parseOptions(argv, env, defaults);

describe('parseOptions', () => {
  it('reads flags in both spellings and fills in the defaults', () => {
    const { options } = parse(['--url', 'https://plinth.test/'], { PLINTH_AGENT_TOKEN: 'secret' });
    expect(options).toEqual({
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
    const { options } = parse(
      ['--plan-command', 'flag-plan', '--max-jobs', '2', '--report-timeout=600'],
      env,
    );
    expect(options.url).toBe('http://a.test');
    expect(options.commands.plan).toBe('flag-plan');
    expect(options.maxJobs).toBe(2);
    expect(options.reportTimeoutSeconds).toBe(600);
    expect(parse([], env).options.commands.plan).toBe('env-plan');
  });

  it('takes an engine command per policy kind from flags or the environment', () => {
    const env = { PLINTH_URL: 'http://a.test', PLINTH_AGENT_TOKEN: 't', PLINTH_FRAMEWORK_B_COMMAND: 'env-b' };
    const { options } = parse(['--framework-a-command', 'flag-a'], env);
    expect(options.policyCommands).toEqual({ framework_a: 'flag-a', framework_b: 'env-b' });
  });

  it('keeps an = inside a command given inline', () => {
    const { options } = parse(['--url=http://a.test', '--show-command=X=1 show'], {
      PLINTH_AGENT_TOKEN: 't',
    });
    expect(options.commands.show).toBe('X=1 show');
  });

  describe('the agent token', () => {
    const url = ['--url', 'http://a.test'];

    it('comes from PLINTH_AGENT_TOKEN without a warning', () => {
      expect(parse(url, { PLINTH_AGENT_TOKEN: 'env-secret' })).toEqual({
        options: expect.objectContaining({ token: 'env-secret' }),
        warnings: [],
      });
    });

    it('comes from the file --token-file or PLINTH_AGENT_TOKEN_FILE names, without its newline', () => {
      const fromFlag = parse([...url, '--token-file', '/run/secrets/agent-token']);
      expect(fromFlag).toEqual({ options: expect.objectContaining({ token: 'file-secret' }), warnings: [] });
      const fromEnv = parse(url, { PLINTH_AGENT_TOKEN_FILE: '/run/secrets/agent-token' });
      expect(fromEnv.options.token).toBe('file-secret');
    });

    it('takes --token still, warning that it shows in the process list', () => {
      expect(parse([...url, '--token=flag-secret'], { PLINTH_AGENT_TOKEN: 'env-secret' })).toEqual({
        options: expect.objectContaining({ token: 'flag-secret' }),
        warnings: [
          'warning: --token shows the agent token to anyone who can list processes on this host; ' +
            'use PLINTH_AGENT_TOKEN or --token-file instead',
        ],
      });
    });

    it('lets a flag win over the environment, and the variable over the file variable', () => {
      const env = { PLINTH_AGENT_TOKEN: 'env-secret', PLINTH_AGENT_TOKEN_FILE: '/run/secrets/agent-token' };
      expect(parse(url, env).options.token).toBe('env-secret');
      expect(parse([...url, '--token-file=/run/secrets/agent-token'], env).options.token).toBe('file-secret');
    });

    it('refuses both flags, an unreadable or empty file, and no token at all', () => {
      expect(() => parse([...url, '--token=t', '--token-file=/run/secrets/agent-token'])).toThrow(
        'give the agent token once: --token or --token-file, not both',
      );
      expect(() => parse([...url, '--token-file=/missing'])).toThrow(
        'cannot read the token file /missing: ENOENT',
      );
      expect(() => parse([...url, '--token-file=/empty'])).toThrow('the token file /empty is empty');
      expect(() => parse(url)).toThrow(
        'the agent token is required: PLINTH_AGENT_TOKEN, --token-file or --token',
      );
    });
  });

  it('refuses missing, unknown and malformed arguments', () => {
    expect(() => parse(['--token', 't'])).toThrow(OptionsError);
    expect(() => parse(['--url', 'ftp://a', '--token', 't'])).toThrow('http(s)');
    expect(() => parse(['--url', 'http://a', '--token', 't', '--colour'])).toThrow(
      'unknown argument --colour',
    );
    expect(() => parse(['--url', 'http://a', '--token'])).toThrow('needs a value');
    expect(() => parse(['--url=http://a', '--token=t', '--max-jobs=x'])).toThrow('whole number');
    expect(() => parse(['--url=http://a', '--token=t', '--report-timeout=0'])).toThrow(
      '--report-timeout must be a positive number of seconds, got 0',
    );
  });
});
