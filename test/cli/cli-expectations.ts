import { CLI_VERSION, CliSession, JsonDoc } from './cli-session';
import { idOf } from '../helpers/fixtures';

/** What the CLI checks or dereferences in Plinth's answers (reference §5.3, §5.10). */

/** §5.3: what every answer of the API said about the server; foreign requests never carried the token. */
export function expectCliHeaders(cli: CliSession): void {
  for (const call of cli.calls.filter((c) => !c.foreign && c.path.startsWith('/api/v2'))) {
    const version = call.headers.get('tfp-api-version') ?? '';
    expect(`${call.method} ${call.path}: ${version}`).toMatch(/: \d+\.\d+$/);
    const [major, minor] = version.split('.').map(Number);
    expect(major * 100 + minor).toBeGreaterThanOrEqual(205);
    expect(call.headers.get('tfp-appname')).toBe('Plinth');
    expect(call.headers.get('x-tfe-version')).toBeNull();
  }
  // Foreign requests (uploads) never carried the token.
  expect(cli.calls.filter((c) => c.foreign && c.authorized)).toEqual([]);
}

/**
 * The calls since `from` hold `expected` in this order, polls and waits between them allowed
 * (how often the CLI polls depends on how fast the executor is).
 */
export function expectInOrder(cli: CliSession, from: number, expected: string[]): void {
  const made = cli.since(from);
  let at = 0;
  for (const call of expected) {
    const found = made.indexOf(call, at);
    if (found < 0) throw new Error(`no ${call} after call ${at} in:\n${made.join('\n')}`);
    at = found + 1;
  }
}

/** §5.10: the workspace fields the CLI reads, as `GET /organizations/:org/workspaces/:name` answers. */
export function expectCliWorkspace(ws: JsonDoc, cli: CliSession, locked = false): void {
  expect(ws).toMatchObject({
    id: expect.stringMatching(idOf('ws')),
    type: 'workspaces',
    attributes: {
      name: cli.workspaceName,
      'execution-mode': 'remote',
      'terraform-version': CLI_VERSION,
      locked,
      'vcs-repo': null,
      'working-directory': null,
      'structured-run-output-enabled': false,
      permissions: {
        'can-queue-run': true,
        'can-update': true,
        'can-queue-apply': true,
        'can-force-delete': expect.any(Boolean),
      },
    },
    relationships: {
      organization: { data: { id: cli.organization, type: 'organizations' } },
    },
  });
  const currentRun = ws.relationships['current-run'] as { data: { type: string } | null };
  expect(currentRun.data === null || currentRun.data.type === 'runs').toBe(true);
}

/** §5.10: the run fields the CLI reads. */
export function expectCliRun(run: JsonDoc, workspaceId: string, status: unknown): void {
  expect(run).toMatchObject({
    id: expect.stringMatching(idOf('run')),
    type: 'runs',
    attributes: {
      status,
      'has-changes': expect.any(Boolean),
      actions: {
        'is-cancelable': expect.any(Boolean),
        'is-confirmable': expect.any(Boolean),
        'is-discardable': expect.any(Boolean),
        'is-force-cancelable': expect.any(Boolean),
      },
      permissions: {
        'can-apply': true,
        'can-cancel': true,
        'can-discard': true,
        'can-force-cancel': true,
        'can-force-execute': expect.any(Boolean),
      },
    },
    relationships: {
      workspace: { data: { id: workspaceId, type: 'workspaces' } },
      plan: { data: { id: expect.stringMatching(idOf('plan')), type: 'plans' } },
      apply: { data: { id: expect.stringMatching(idOf('apply')), type: 'applies' } },
      'cost-estimate': { data: null },
      'policy-checks': { data: expect.any(Array) },
      'task-stages': { data: [] },
    },
  });
}
