import { AgentContext } from '../../src/runs/protocol/agent-context';
import { AgentEntity } from '../../src/runs/pools/entities/agent.entity';
import { AgentPoolEntity } from '../../src/runs/pools/entities/agent-pool.entity';
import { Principal } from '../../src/common/auth/principal';
import { newId } from '../../src/common/ids';
import { inTransaction } from '../../src/common/sql/transaction';
import { OrganizationEntity } from '../../src/organizations/entities/organization.entity';
import { ProjectEntity } from '../../src/projects/entities/project.entity';
import { ConfigurationVersionEntity } from '../../src/runs/entities/configuration-version.entity';
import { RunEntity } from '../../src/runs/entities/run.entity';
import { RunJobEntity } from '../../src/runs/entities/run-job.entity';
import { RunPhaseEntity } from '../../src/runs/entities/run-phase.entity';
import { DEFAULT_RUN_OPTIONS } from '../../src/runs/run-options';
import { RunQueueService } from '../../src/runs/run-queue.service';
import { JobReport } from '../../src/runs/run-rules';
import { WorkspaceEntity } from '../../src/workspaces/entities/workspace.entity';
import { ServiceApp } from '../helpers/service-app';

/** The origin the services put in the links of a claimed job (nothing fetches them here). */
export const ORIGIN = 'http://127.0.0.1:9';

/** A site administrator: passes every permission check, so the specs test the control plane alone. */
export const ADMIN: Principal = {
  kind: 'user',
  tokenId: 'at-servicespecadmin',
  userId: 'user-servicespecadmin',
  username: 'admin',
  isSiteAdmin: true,
};

export interface Seeded {
  organizationId: string;
  workspaceId: string;
  configurationVersionId: string;
  /** An executor of the organization-scoped pool, as the agent routes would hand it to the services. */
  agent: AgentContext;
}

/**
 * An organization with one workspace (runs on the organization's default executors), an uploaded
 * configuration version and one agent of an organization-scoped pool, inserted as rows: the
 * rules under test start where these end.
 */
export async function seedWorkspace(app: ServiceApp): Promise<Seeded> {
  const now = new Date();
  const stamps = { createdAt: now, updatedAt: now };
  const organizationId = newId('org');
  const projectId = newId('prj');
  const workspaceId = newId('ws');
  const configurationVersionId = newId('cv');
  const poolId = newId('apool');
  const agent = agentOf(organizationId, poolId);
  await app.ds.transaction(async (m) => {
    await m.insert(OrganizationEntity, {
      id: organizationId,
      name: organizationId.toLowerCase(),
      email: 'owner@example.com',
      edition: 'free',
      ...stamps,
    });
    await m.insert(ProjectEntity, {
      id: projectId,
      organizationId,
      name: 'Default Project',
      description: null,
      isDefault: true,
      ...stamps,
    });
    await m.insert(WorkspaceEntity, {
      id: workspaceId,
      organizationId,
      projectId,
      name: 'control-plane',
      description: null,
      locked: false,
      agentPoolId: null,
      autoApply: false,
      autoApplyRunTrigger: false,
      ...stamps,
    });
    await m.insert(ConfigurationVersionEntity, {
      id: configurationVersionId,
      workspaceId,
      status: 'uploaded',
      autoQueueRuns: false,
      speculative: false,
      errorMessage: null,
      createdById: null,
      archiveKey: null,
      archiveSize: null,
      uploadedAt: now,
      erroredAt: null,
      ...stamps,
    });
    await m.insert(AgentPoolEntity, {
      id: poolId,
      organizationId,
      name: 'pool',
      organizationScoped: true,
      ...stamps,
    });
    await m.insert(AgentEntity, agentRow(agent.agentId, poolId, now));
  });
  return { organizationId, workspaceId, configurationVersionId, agent };
}

function agentRow(id: string, poolId: string, now: Date): AgentEntity {
  return Object.assign(new AgentEntity(), {
    id,
    poolId,
    tokenId: null,
    name: id,
    status: 'idle',
    ipAddress: null,
    lastPingAt: now,
    createdAt: now,
  });
}

function agentOf(organizationId: string, poolId: string): AgentContext {
  const agentId = newId('agent');
  return {
    agentId,
    agentName: agentId,
    tokenId: 'at-servicespecagent',
    poolId,
    organizationId,
    organizationScoped: true,
  };
}

/** One more executor of the seeded pool. */
export async function addAgent(app: ServiceApp, seeded: Seeded): Promise<AgentContext> {
  const agent = agentOf(seeded.organizationId, seeded.agent.poolId);
  await app.ds.getRepository(AgentEntity).insert(agentRow(agent.agentId, agent.poolId, new Date()));
  return agent;
}

/** Queues a run as `POST /runs` does once its body is checked. */
export function queueRun(
  app: ServiceApp,
  seeded: Seeded,
  options: { autoApply?: boolean; planOnly?: boolean } = {},
): Promise<RunEntity> {
  return inTransaction(app.ds, (manager) =>
    app.get(RunQueueService).enqueue(manager, {
      workspaceId: seeded.workspaceId,
      configurationVersionId: seeded.configurationVersionId,
      message: 'service spec',
      ...DEFAULT_RUN_OPTIONS,
      planOnly: options.planOnly ?? false,
      autoApply: options.autoApply ?? false,
      source: 'tfe-api',
      triggerReason: 'manual',
      createdById: null,
      triggeringRunId: null,
    }),
  );
}

export async function readRun(app: ServiceApp, id: string): Promise<RunEntity> {
  return app.ds.getRepository(RunEntity).findOneByOrFail({ id });
}

export async function readPhase(app: ServiceApp, id: string): Promise<RunPhaseEntity> {
  return app.ds.getRepository(RunPhaseEntity).findOneByOrFail({ id });
}

export async function jobsOf(app: ServiceApp, runId: string): Promise<RunJobEntity[]> {
  return app.ds
    .getRepository(RunJobEntity)
    .find({ where: { runId }, order: { createdAt: 'ASC', id: 'ASC' } });
}

/** A plan's report: finished with changes, finished without, or errored. */
export function planReport(outcome: 'changes' | 'no-changes' | 'errored'): JobReport {
  return {
    status: outcome === 'errored' ? 'errored' : 'finished',
    errorMessage: outcome === 'errored' ? 'the plan failed' : null,
    hasChanges: outcome === 'changes',
    resourceAdditions: outcome === 'changes' ? 1 : 0,
    resourceChanges: 0,
    resourceDestructions: 0,
    resourceImports: 0,
  };
}
