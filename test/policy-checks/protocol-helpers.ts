import request from 'supertest';
import { Actor, createOrganization, createProject, createWorkspace } from '../helpers/fixtures';
import { TestApp } from '../helpers/test-app';
import {
  claimJob,
  createRun,
  executor,
  Executor,
  PLANNED_WITH_CHANGES,
  putLink,
  uploadedVersion,
} from '../runs/run-fixtures';

export const PLAN_JSON = '{"format_version":"1.2","resource_changes":[]}';

/** A claimed policy-evaluation job, as the executor protocol hands it out. */
export interface ClaimedEvaluation {
  id: string;
  kind: string;
  'run-id': string;
  links: Record<string, string>;
  'policy-evaluation': {
    id: string;
    'policy-set-name': string;
    'policy-kind': string;
    bundle: string | null;
    policies: { name: string; 'enforcement-level': string; query: string | null; code: string | null }[];
  };
}

/** Steps of the policy-check path driven over the executor protocol by hand. */
export function protocolHelpers(app: () => { t: TestApp; admin: Actor }) {
  /** An organization, a workspace in a project, and an executor of an organization-scoped pool. */
  async function setting(): Promise<{ org: string; ws: string; project: string; ex: Executor }> {
    const { t, admin } = app();
    const org = await createOrganization(admin);
    const project = await createProject(admin, org);
    const ws = await createWorkspace(admin, org, undefined, project);
    await uploadedVersion(t, admin, ws);
    return { org, ws, project, ex: await executor(t, admin, org) };
  }

  /** Plans the run through the protocol (uploading the plan JSON) and answers the plan job. */
  async function planned(ex: Executor, ws: string, attributes: Record<string, unknown> = {}) {
    const { t, admin } = app();
    const run = await createRun(admin, ws, attributes);
    const job = await claimJob(ex);
    expect(job).toMatchObject({ kind: 'plan', runId: run.id });
    await putLink(t, job.links['plan-json'], PLAN_JSON).expect(200);
    await ex.finish(job.id, PLANNED_WITH_CHANGES).expect(204);
    return run;
  }

  /** Claims the next job, which must be a policy evaluation, with its whole payload. */
  async function claimEvaluation(ex: Executor): Promise<ClaimedEvaluation> {
    const res = await ex.claim().expect(200);
    expect(res.body.job.kind).toBe('policy-evaluation');
    return res.body.job as ClaimedEvaluation;
  }

  /** A signed link, fetched without Authorization. */
  const fetchLink = (link: string) => {
    const url = new URL(link);
    return request(app().t.origin).get(url.pathname + url.search);
  };

  const passedAll = (job: ClaimedEvaluation) => ({
    status: 'finished',
    results: job['policy-evaluation'].policies.map((p) => ({
      policy: p.name,
      status: 'passed',
      output: 'ok',
    })),
  });

  return { setting, planned, claimEvaluation, fetchLink, passedAll };
}
