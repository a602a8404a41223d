import fc from 'fast-check';
import { DomainError } from '../../src/common/errors/domain-error';
import { RunJobsService } from '../../src/runs/protocol/run-jobs.service';
import { afterReport } from '../../src/runs/run-rules';
import { RunsService } from '../../src/runs/runs.service';
import { ServiceApp, startServices } from '../helpers/service-app';
import {
  ADMIN,
  jobsOf,
  ORIGIN,
  planReport,
  queueRun,
  readPhase,
  readRun,
  seedWorkspace,
} from './control-plane-fixtures';

/** How the cancel and the plan's report meet: one after the other, or at once. */
const ORDERS = ['cancel-then-report', 'report-then-cancel', 'concurrent'] as const;
type Order = (typeof ORDERS)[number];

/** Yields to the event loop `n` times: shifts where one side's statements fall among the other's. */
async function jitter(n: number): Promise<void> {
  for (let i = 0; i < n; i++) await new Promise((resolve) => setImmediate(resolve));
}

/** Settles to whether the cancel was accepted (the route's 202) or refused (its 409). */
async function accepted(work: Promise<void>): Promise<boolean> {
  try {
    await work;
    return true;
  } catch (err) {
    if (err instanceof DomainError && err.kind === 'conflict') return false;
    throw err;
  }
}

describe('a cancel racing the report of a running plan', () => {
  let app: ServiceApp;
  let runs: RunsService;
  let jobs: RunJobsService;

  beforeAll(async () => {
    app = await startServices();
    runs = app.get(RunsService);
    jobs = app.get(RunJobsService);
  });
  afterAll(() => app.close());

  it('ends the run canceled whenever the cancel was accepted, in every order, and leaves nothing to claim', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(...ORDERS),
        fc.boolean(),
        fc.constantFrom('changes' as const, 'no-changes' as const, 'errored' as const),
        fc.nat(6),
        fc.nat(6),
        async (order: Order, autoApply, outcome, cancelDelay, reportDelay) => {
          // A workspace and executor of their own: a failed round leaves nothing in the next one's way.
          const seeded = await seedWorkspace(app);
          const run = await queueRun(app, seeded, { autoApply });
          const job = await jobs.claim(seeded.agent, ORIGIN);
          expect(job).toMatchObject({ 'run-id': run.id, kind: 'plan' });
          const report = planReport(outcome);
          const cancel = async () => {
            await jitter(cancelDelay);
            return accepted(runs.act(ADMIN, run.id, 'cancel'));
          };
          const finish = async () => {
            await jitter(reportDelay);
            await jobs.finish(seeded.agent, job!.id, report);
          };
          let canceled: boolean;
          if (order === 'cancel-then-report') {
            canceled = await cancel();
            await finish();
          } else if (order === 'report-then-cancel') {
            await finish();
            canceled = await cancel();
          } else {
            [canceled] = await Promise.all([cancel(), finish()]);
          }

          const after = await readRun(app, run.id);
          // The report is always taken; the cancel may only lose to a report that landed first.
          if (order === 'cancel-then-report') expect(canceled).toBe(true);
          if (canceled) {
            expect({ status: after.status, canceledAt: after.canceledAt !== null }).toEqual({
              status: 'canceled',
              canceledAt: true,
            });
            // Nothing of the run is left to claim or still held, and its apply never started.
            expect(await jobs.claim(seeded.agent, ORIGIN)).toBeNull();
            const open = (await jobsOf(app, run.id)).filter(
              (j) => j.status === 'queued' || j.status === 'claimed',
            );
            expect(open).toEqual([]);
            expect(['pending', 'canceled']).toContain((await readPhase(app, run.applyId)).status);
          } else {
            const reported = afterReport('plan', report, { ...run, cancelRequested: false });
            expect({ status: after.status, canceledAt: after.canceledAt }).toEqual({
              status: reported,
              canceledAt: null,
            });
          }
        },
      ),
      { numRuns: Number(process.env.RACE_ROUNDS ?? 40) },
    );
  });
});
