/**
 * The wire shapes of the executor job protocol (docs/runs.md, "Executor protocol"), declared once:
 * the server's routes answer them and the reference executor reads them.
 */

/** What `POST /api/v2/agent/register` answers. */
export interface Registration {
  'agent-id': string;
  'pool-id': string;
  organization: string;
  'poll-interval-seconds': number;
  'heartbeat-interval-seconds': number;
}

/** Signed links of a claimed job: plan jobs upload the plan JSON and file, apply jobs download the file. */
export interface JobLinks {
  configuration: string;
  logs: string;
  'plan-json'?: string;
  'plan-file'?: string;
}

/** A claimed job as `POST /api/v2/agent/jobs/claim` hands it out. */
export interface JobPayload {
  id: string;
  kind: 'plan' | 'apply';
  'run-id': string;
  'workspace-id': string;
  'workspace-name': string;
  organization: string;
  'is-destroy': boolean;
  'plan-only': boolean;
  'heartbeat-interval-seconds': number;
  links: JobLinks;
}
