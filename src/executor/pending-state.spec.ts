import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PendingReport, PendingReports } from './pending-reports';
import { JobReport, ProtocolClient, ProtocolError } from './protocol-client';

/** Stands in for Plinth: answers each state upload as told, and records what reached it. */
class FakeClient {
  readonly calls: string[] = [];
  stateAnswer: 'ok' | 'away' | number = 'ok';

  async upload(url: string, body: Buffer | string): Promise<void> {
    this.calls.push(`PUT ${url} ${Buffer.from(body).toString('utf8')}`);
    if (this.stateAnswer === 'away') throw new Error('connect ECONNREFUSED');
    if (typeof this.stateAnswer === 'number') {
      throw new ProtocolError(`PUT ${url} answered ${this.stateAnswer}`, this.stateAnswer);
    }
  }

  async finish(jobId: string, report: JobReport): Promise<void> {
    this.calls.push(`finish ${jobId} ${JSON.stringify(report)}`);
  }
}

describe('pending reports carry the state an apply left', () => {
  let dir: string;
  let client: FakeClient;
  let reports: PendingReports;
  const state = Buffer.from('{"version":4,"serial":3}\n');
  const pending = (report: JobReport): PendingReport => ({
    jobId: 'job-abc',
    agentId: 'agent-1',
    poolId: 'apool-1',
    report,
    deadline: Date.now() + 60_000,
    state: { url: 'http://plinth/uploads/state', content: state },
  });

  beforeEach(() => {
    dir = join(mkdtempSync(join(tmpdir(), 'plinth-pending-state-')), 'reports');
    client = new FakeClient();
    reports = new PendingReports(dir, client as unknown as ProtocolClient);
  });
  afterEach(() => rmSync(join(dir, '..'), { recursive: true, force: true }));

  it('keeps the state on disk with the report, and reads both back after a restart', async () => {
    await reports.keep(pending({ status: 'finished' }));
    expect(readdirSync(dir).sort()).toEqual(['job-abc.json', 'job-abc.tfstate']);
    expect(readFileSync(join(dir, 'job-abc.tfstate')).equals(state)).toBe(true);
    // The JSON holds the link, never the state itself.
    expect(readFileSync(join(dir, 'job-abc.json'), 'utf8')).not.toContain('serial');

    const [loaded] = await new PendingReports(dir, client as unknown as ProtocolClient).load('apool-1');
    expect(loaded.state?.url).toBe('http://plinth/uploads/state');
    expect(loaded.state?.content.equals(state)).toBe(true);
  });

  it('sends the state before the report, then forgets both', async () => {
    const report = pending({ status: 'errored', 'error-message': 'apply failed (exit code 1)' });
    await reports.keep(report);
    expect(await reports.deliver(report)).toEqual({ done: true });
    expect(client.calls).toEqual([
      `PUT http://plinth/uploads/state ${state.toString('utf8')}`,
      'finish job-abc {"status":"errored","error-message":"apply failed (exit code 1)"}',
    ]);
    expect(readdirSync(dir)).toEqual([]);
  });

  it('holds the report back while Plinth is away, and keeps the state for the next try', async () => {
    const report = pending({ status: 'finished' });
    await reports.keep(report);
    client.stateAnswer = 'away';
    expect(await reports.deliver(report)).toMatchObject({ done: false });
    expect(client.calls.filter((c) => c.startsWith('finish'))).toEqual([]);
    expect(readdirSync(dir).sort()).toEqual(['job-abc.json', 'job-abc.tfstate']);
    client.stateAnswer = 'ok';
    expect(await reports.deliver(report)).toEqual({ done: true });
    expect(client.calls.filter((c) => c.startsWith('PUT'))).toHaveLength(2);
  });

  it('keeps a refused state aside and reports the job errored, saying where the state is', async () => {
    const report = pending({ status: 'finished' });
    await reports.keep(report);
    client.stateAnswer = 409;
    expect(await reports.deliver(report)).toEqual({ done: true });
    const kept = join(dir, 'job-abc.refused.tfstate');
    expect(readdirSync(dir)).toEqual(['job-abc.refused.tfstate']);
    expect(readFileSync(kept).equals(state)).toBe(true);
    expect(client.calls.at(-1)).toBe(
      'finish job-abc ' +
        JSON.stringify({
          status: 'errored',
          'error-message': `Plinth refused the state the apply left (PUT http://plinth/uploads/state answered 409); it is kept at ${kept}`,
        }),
    );
    expect(existsSync(join(dir, 'job-abc.tfstate'))).toBe(false);
  });
});
