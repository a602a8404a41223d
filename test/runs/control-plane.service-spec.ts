import { Clock } from '../../src/common/clock';
import { DomainError } from '../../src/common/errors/domain-error';
import { inTransaction } from '../../src/common/sql/transaction';
import { RunJobsService } from '../../src/runs/protocol/run-jobs.service';
import { RunQueueService } from '../../src/runs/run-queue.service';
import { IllegalTransitionError, JobReport } from '../../src/runs/run-rules';
import { RunTimeoutsService } from '../../src/runs/run-timeouts.service';
import { RunsService } from '../../src/runs/runs.service';
import { ServiceApp, startServices } from '../helpers/service-app';
import {
  addAgent,
  ADMIN,
  jobsOf,
  ORIGIN,
  planReport,
  queueRun,
  readPhase,
  readRun,
  seedWorkspace,
} from './control-plane-fixtures';
import { MovableClock } from './run-fixtures';

/** The kind of DomainError a promise rejected with, or 'resolved'. */
async function outcome(work: Promise<unknown>): Promise<string> {
  try {
    await work;
    return 'resolved';
  } catch (err) {
    if (err instanceof DomainError) return err.kind;
    throw err;
  }
}

/** An apply's report: it changed what the plan said. */
const APPLIED: JobReport = { ...planReport('changes'), resourceAdditions: 1 };

describe('the run control plane, through its services', () => {
  let app: ServiceApp;
  let runs: RunsService;
  let jobs: RunJobsService;
  let queue: RunQueueService;
  let timeouts: RunTimeoutsService;
  const clock = new MovableClock();

  beforeAll(async () => {
    app = await startServices({ EXECUTOR_TIMEOUT: '60' }, [{ provide: Clock, useValue: clock }]);
    runs = app.get(RunsService);
    jobs = app.get(RunJobsService);
    queue = app.get(RunQueueService);
    timeouts = app.get(RunTimeoutsService);
    // The sweeps below run by hand, at the times the moved clock says.
    timeouts.onApplicationShutdown();
  });
  afterAll(() => app.close());

  describe('claims', () => {
    it('hands each queued job to exactly one of many executors claiming at once', async () => {
      const seeded = await seedWorkspace(app);
      // Plan-only runs never wait for one another: all eight plans are queued at once.
      const queued = [];
      for (let i = 0; i < 8; i++) queued.push(await queueRun(app, seeded, { planOnly: true }));
      const agents = [
        seeded.agent,
        ...(await Promise.all(Array.from({ length: 11 }, () => addAgent(app, seeded)))),
      ];

      const claims = await Promise.all(agents.map((agent) => jobs.claim(agent, ORIGIN)));
      const taken = claims.filter((c) => c !== null);
      expect(taken.length).toBe(8);
      expect(taken.map((c) => c['run-id']).sort()).toEqual(queued.map((r) => r.id).sort());
      expect(await jobs.claim(seeded.agent, ORIGIN)).toBeNull();

      for (const run of queued) {
        const [job] = await jobsOf(app, run.id);
        expect({ status: job.status, run: (await readRun(app, run.id)).status }).toEqual({
          status: 'claimed',
          run: 'planning',
        });
        const plan = await readPhase(app, run.planId);
        expect({ status: plan.status, agentId: plan.agentId }).toEqual({
          status: 'running',
          agentId: job.agentId,
        });
      }
      expect(new Set(taken.map((c) => c.id)).size).toBe(8);
      // Reported, so that no job of this test is left for the timeout sweeps below.
      for (const [i, c] of claims.entries())
        if (c) await jobs.finish(agents[i], c.id, planReport('no-changes'));
    });
  });

  describe('reports', () => {
    it('takes the same report twice as one, and refuses a different one or another executor', async () => {
      const seeded = await seedWorkspace(app);
      const run = await queueRun(app, seeded);
      const job = (await jobs.claim(seeded.agent, ORIGIN))!;
      const stranger = await addAgent(app, seeded);

      await jobs.finish(seeded.agent, job.id, planReport('changes'));
      const once = await readRun(app, run.id);
      await jobs.finish(seeded.agent, job.id, planReport('changes'));
      expect(await readRun(app, run.id)).toEqual(once);
      expect(once.status).toBe('planned');

      expect(await outcome(jobs.finish(seeded.agent, job.id, planReport('no-changes')))).toBe('conflict');
      expect(await outcome(jobs.finish(stranger, job.id, planReport('changes')))).toBe('not-found');
      expect(await readRun(app, run.id)).toEqual(once);
    });

    it('keeps a job alive with one write, and tells a stopped job, another executor and an unknown job apart', async () => {
      const seeded = await seedWorkspace(app);
      const run = await queueRun(app, seeded);
      const job = (await jobs.claim(seeded.agent, ORIGIN))!;
      const stranger = await addAgent(app, seeded);
      const [claimed] = await jobsOf(app, run.id);

      clock.advance(5_000);
      expect(await jobs.heartbeat(seeded.agent, job.id)).toBe('running');
      const [beaten] = await jobsOf(app, run.id);
      expect(beaten.heartbeatAt!.getTime() - claimed.heartbeatAt!.getTime()).toBeGreaterThanOrEqual(5_000);

      expect(await outcome(jobs.heartbeat(stranger, job.id))).toBe('not-found');
      expect(await outcome(jobs.heartbeat(seeded.agent, 'job-unknown00000000'))).toBe('not-found');
      expect((await jobsOf(app, run.id))[0].heartbeatAt).toEqual(beaten.heartbeatAt);

      // A cancel asked for while the job runs: the job stays claimed, and its next heartbeat stops it.
      await runs.act(ADMIN, run.id, 'cancel');
      clock.advance(5_000);
      expect(await jobs.heartbeat(seeded.agent, job.id)).toBe('canceled');
      expect((await jobsOf(app, run.id))[0]).toMatchObject({ status: 'claimed', heartbeatAt: beaten.heartbeatAt });
      await jobs.finish(seeded.agent, job.id, planReport('errored'));
      expect((await readRun(app, run.id)).status).toBe('canceled');
    });

    it('moves a run through plan, apply and applied, stamping each status and phase it passes', async () => {
      const seeded = await seedWorkspace(app);
      const run = await queueRun(app, seeded);
      expect(run.status).toBe('plan_queued');
      const plan = (await jobs.claim(seeded.agent, ORIGIN))!;
      await jobs.finish(seeded.agent, plan.id, planReport('changes'));
      await runs.act(ADMIN, run.id, 'apply');
      const apply = (await jobs.claim(seeded.agent, ORIGIN))!;
      expect(apply).toMatchObject({ kind: 'apply', 'run-id': run.id });
      expect((await readRun(app, run.id)).status).toBe('applying');
      await jobs.finish(seeded.agent, apply.id, APPLIED);

      const done = await readRun(app, run.id);
      expect(done.status).toBe('applied');
      expect(Object.keys(JSON.parse(done.statusTimestamps)).sort()).toEqual(
        [
          'plan-queueable-at',
          'plan-queued-at',
          'planning-at',
          'planned-at',
          'apply-queued-at',
          'applying-at',
          'applied-at',
        ].sort(),
      );
      const phases = [await readPhase(app, run.planId), await readPhase(app, run.applyId)];
      expect(phases.map((p) => [p.status, Object.keys(JSON.parse(p.statusTimestamps)).sort()])).toEqual([
        ['finished', ['finished-at', 'queued-at', 'started-at']],
        ['finished', ['finished-at', 'queued-at', 'started-at']],
      ]);
    });
  });

  describe('the queue', () => {
    it('creates each run after the newest of its workspace, ended or not, whatever the clock says, and starts only the first', async () => {
      const seeded = await seedWorkspace(app);
      const speculative = await queueRun(app, seeded, { planOnly: true });
      const plan = (await jobs.claim(seeded.agent, ORIGIN))!;
      await jobs.finish(seeded.agent, plan.id, planReport('no-changes'));
      expect((await readRun(app, speculative.id)).status).toBe('planned_and_finished');
      // The clock goes back: the ended run is still the workspace's newest.
      clock.advance(-60_000);
      try {
        const first = await queueRun(app, seeded);
        const second = await queueRun(app, seeded);
        expect(first.createdAt.getTime()).toBeGreaterThan(speculative.createdAt.getTime());
        expect(second.createdAt.getTime()).toBeGreaterThan(first.createdAt.getTime());
        // Each as stored: the first inserted started (its plan queued, its job waiting), the second pending.
        const stored = [await readRun(app, first.id), await readRun(app, second.id)];
        expect(stored.map((r) => [r.status, r.createdAt.getTime()])).toEqual([
          ['plan_queued', first.createdAt.getTime()],
          ['pending', second.createdAt.getTime()],
        ]);
        expect(Object.keys(JSON.parse(stored[0].statusTimestamps)).sort()).toEqual([
          'plan-queueable-at',
          'plan-queued-at',
        ]);
        const firstPlan = await readPhase(app, first.planId);
        expect([
          firstPlan.status,
          firstPlan.agentPoolId,
          Object.keys(JSON.parse(firstPlan.statusTimestamps)),
        ]).toEqual(['queued', null, ['queued-at']]);
        expect((await readPhase(app, second.planId)).status).toBe('pending');
        expect((await jobsOf(app, first.id)).map((j) => [j.kind, j.status])).toEqual([['plan', 'queued']]);
        expect(await jobsOf(app, second.id)).toEqual([]);
      } finally {
        clock.advance(60_000);
      }
    });
  });

  describe('the transition table', () => {
    it('refuses a move it does not list before touching the database', async () => {
      const seeded = await seedWorkspace(app);
      const run = await queueRun(app, seeded);
      const before = await readRun(app, run.id);
      await expect(inTransaction(app.ds, (m) => queue.move(m, run, 'applied'))).rejects.toThrow(
        IllegalTransitionError,
      );
      await expect(inTransaction(app.ds, (m) => queue.end(m, run, 'discarded'))).rejects.toThrow(
        'a run cannot move from plan_queued to discarded',
      );
      expect(await readRun(app, run.id)).toEqual(before);
    });

    it('refuses to confirm, discard or force-cancel a queued run, each with its own code', async () => {
      const seeded = await seedWorkspace(app);
      const run = await queueRun(app, seeded);
      await expect(runs.act(ADMIN, run.id, 'apply')).rejects.toMatchObject({
        kind: 'conflict',
        code: 'RUN_NOT_CONFIRMABLE',
      });
      await expect(runs.act(ADMIN, run.id, 'discard')).rejects.toMatchObject({ code: 'RUN_NOT_DISCARDABLE' });
      await expect(runs.act(ADMIN, run.id, 'force-cancel')).rejects.toMatchObject({
        code: 'RUN_NOT_FORCE_CANCELABLE',
      });
      expect((await readRun(app, run.id)).status).toBe(run.status);
    });

    it('lets only one of two racing moves from the same status land', async () => {
      const seeded = await seedWorkspace(app);
      const run = await queueRun(app, seeded);
      const job = (await jobs.claim(seeded.agent, ORIGIN))!;
      await jobs.finish(seeded.agent, job.id, planReport('changes'));
      const results = await Promise.all([
        outcome(runs.act(ADMIN, run.id, 'discard')),
        outcome(runs.act(ADMIN, run.id, 'apply')),
      ]);
      expect(results.sort()).toEqual(['conflict', 'resolved']);
      const after = await readRun(app, run.id);
      expect(['discarded', 'apply_queued']).toContain(after.status);
      expect((await jobsOf(app, run.id)).filter((j) => j.kind === 'apply').length).toBe(
        after.status === 'apply_queued' ? 1 : 0,
      );
    });

    it('lets a run with a pending cancel only stop, even for a caller that read it before the cancel', async () => {
      const seeded = await seedWorkspace(app);
      const run = await queueRun(app, seeded);
      await jobs.claim(seeded.agent, ORIGIN);
      const readBefore = await readRun(app, run.id);
      await runs.act(ADMIN, run.id, 'cancel');

      expect(await inTransaction(app.ds, (m) => queue.move(m, { ...readBefore }, 'planned'))).toBe(false);
      expect(await inTransaction(app.ds, (m) => queue.move(m, { ...readBefore }, 'policy_checking'))).toBe(
        false,
      );
      expect((await readRun(app, run.id)).status).toBe('planning');
      expect(await inTransaction(app.ds, (m) => queue.end(m, { ...readBefore }, 'canceled'))).toBe(true);
      expect((await readRun(app, run.id)).status).toBe('canceled');
    });
  });

  describe('timeouts', () => {
    it('errors a quiet job and its run once, however many sweeps race, and starts the next run', async () => {
      const seeded = await seedWorkspace(app);
      const first = await queueRun(app, seeded);
      const second = await queueRun(app, seeded);
      expect(second.status).toBe('pending');
      const job = (await jobs.claim(seeded.agent, ORIGIN))!;

      expect(await timeouts.sweep()).toBe(0);
      clock.advance(61_000);
      const taken = await Promise.all([timeouts.sweep(), timeouts.sweep(), timeouts.sweep()]);
      expect(taken.reduce((a, b) => a + b, 0)).toBe(1);

      const run = await readRun(app, first.id);
      expect({ status: run.status, errorMessage: run.errorMessage }).toEqual({
        status: 'errored',
        errorMessage: 'the executor stopped reporting for 60 s',
      });
      const plan = await readPhase(app, first.planId);
      expect({ status: plan.status, errorMessage: plan.errorMessage }).toEqual({
        status: 'errored',
        errorMessage: 'the executor stopped reporting for 60 s',
      });
      expect((await readRun(app, second.id)).status).toBe('plan_queued');
      // The executor that comes back too late is told its job is gone.
      expect(await jobs.heartbeat(seeded.agent, job.id)).toBe('canceled');
      expect(await outcome(jobs.finish(seeded.agent, job.id, planReport('changes')))).toBe('conflict');
    });
  });
});
