import { Module } from '@nestjs/common';
import { InjectDataSource, TypeOrmModule } from '@nestjs/typeorm';
import { AgentPoolsModule } from './pools/agent-pools.module';
import { AgentWorkRegistry } from './pools/agent-work.registry';
import { OrganizationsModule } from '../organizations/organizations.module';
import { RunTriggersModule } from '../run-triggers/run-triggers.module';
import { UsersModule } from '../users/users.module';
import { WorkspaceBlobsRegistry } from '../workspaces/workspace-blobs.registry';
import { VariablesModule } from '../variables/variables.module';
import { WorkspacesModule } from '../workspaces/workspaces.module';
import { WorkspaceRelationsRegistry } from '../workspaces/workspace-relations.registry';
import { Principal } from '../common/auth/principal';
import { ConfigurationVersionsController } from './configuration-versions.controller';
import { ConfigurationVersionsRepository } from './configuration-versions.repository';
import { configurationBlobPrefix, ConfigurationVersionsService } from './configuration-versions.service';
import { serializeConfigurationVersion } from './configuration-versions.serializer';
import { ConfigurationVersionEntity } from './entities/configuration-version.entity';
import { RunCommentEntity } from './entities/run-comment.entity';
import { RunJobEntity } from './entities/run-job.entity';
import { RunLogChunkEntity } from './entities/run-log-chunk.entity';
import { RunLogEntity } from './entities/run-log.entity';
import { RunPhaseEntity } from './entities/run-phase.entity';
import { RunTriggerOutcomeEntity } from './entities/run-trigger-outcome.entity';
import { RunEntity } from './entities/run.entity';
import { RunCommentsController } from './run-comments.controller';
import { RunCommentsRepository } from './run-comments.repository';
import { RunCommentsService } from './run-comments.service';
import { RunJobsController } from './protocol/run-jobs.controller';
import { RunJobsRepository } from './protocol/run-jobs.repository';
import { RunJobsService } from './protocol/run-jobs.service';
import { JobClaims } from './protocol/job-claims';
import { ClaimedJobs } from './protocol/claimed-jobs';
import { JobSignals } from './protocol/job-signals.service';
import { RunTimeoutsService } from './run-timeouts.service';
import { RunTriggerFiring } from './run-trigger-firing';
import { PlanOutputService } from './plan-output.service';
import { RunLinks, runBlobPrefix } from './run-links';
import { RunLogsRepository } from './run-logs.repository';
import { RunLogsService } from './run-logs.service';
import { RunRetentionRepository } from './run-retention.repository';
import { RunRetentionService } from './run-retention.service';
import { PolicyGateRegistry } from './policy-gate.registry';
import { RunEventsRegistry } from './run-events.registry';
import { RunPolicyTransitions } from './run-policy-transitions';
import { RunPhasesController } from './run-phases.controller';
import { RunQueueService } from './run-queue.service';
import { RunsController } from './runs.controller';
import { OrganizationRunsController } from './organization-runs.controller';
import { OrganizationRunsRepository } from './organization-runs.repository';
import { OrganizationRunsService } from './organization-runs.service';
import { RunsPresenter } from './runs.presenter';
import { RunsRepository } from './runs.repository';
import { RunsService } from './runs.service';
import { StateHandoffRegistry } from './state-handoff.registry';
import { DataSource } from 'typeorm';
import { inTransaction } from '../common/sql/transaction';
import { WrappedKeyHolders } from '../secrets/wrapped-key-holders';

@Module({
  imports: [
    TypeOrmModule.forFeature([
      ConfigurationVersionEntity,
      RunEntity,
      RunPhaseEntity,
      RunJobEntity,
      RunTriggerOutcomeEntity,
      RunCommentEntity,
      RunLogEntity,
      RunLogChunkEntity,
    ]),
    WorkspacesModule,
    UsersModule,
    OrganizationsModule,
    RunTriggersModule,
    VariablesModule,
    AgentPoolsModule,
  ],
  controllers: [
    ConfigurationVersionsController,
    RunsController,
    RunCommentsController,
    RunPhasesController,
    RunJobsController,
    OrganizationRunsController,
  ],
  providers: [
    OrganizationRunsRepository,
    OrganizationRunsService,
    ConfigurationVersionsRepository,
    RunsRepository,
    RunCommentsRepository,
    RunJobsRepository,
    RunLinks,
    RunLogsRepository,
    RunLogsService,
    RunRetentionRepository,
    RunRetentionService,
    RunQueueService,
    ConfigurationVersionsService,
    RunsService,
    PlanOutputService,
    RunCommentsService,
    RunsPresenter,
    RunTriggerFiring,
    RunJobsService,
    JobClaims,
    ClaimedJobs,
    JobSignals,
    RunTimeoutsService,
    PolicyGateRegistry,
    StateHandoffRegistry,
    RunEventsRegistry,
    RunPolicyTransitions,
  ],
  exports: [
    RunsService,
    RunsPresenter,
    RunPolicyTransitions,
    PolicyGateRegistry,
    StateHandoffRegistry,
    RunEventsRegistry,
    RunLinks,
  ],
})
export class RunsModule {
  constructor(
    workspaceBlobs: WorkspaceBlobsRegistry,
    runs: RunsRepository,
    relations: WorkspaceRelationsRegistry,
    service: RunsService,
    presenter: RunsPresenter,
    cvs: ConfigurationVersionsService,
    jobs: RunJobsRepository,
    agentWork: AgentWorkRegistry,
    keyHolders: WrappedKeyHolders,
    @InjectDataSource() ds: DataSource,
  ) {
    // The variable snapshots runs keep in their rows are sealed like every secret.
    keyHolders.register({
      name: 'run variable snapshots',
      batch: (after, limit) => runs.sealedSnapshotsAfter(after, limit),
      replace: (id, from, to) => inTransaction(ds, (m) => runs.replaceSnapshot(m, id, from, to)),
    });
    // An agent is busy while it holds a job.
    agentWork.register((agentIds) => jobs.holders(agentIds));
    // A workspace's `current-run`, and runs in its `included` (`current_run`, a run holding its lock).
    const readable = async (p: Principal, ids: string[]) =>
      presenter.resources(p, await service.readable(p, ids));
    relations.registerRuns({
      currentRunIds: (ids) => runs.currentRunIds(ids),
      readable,
      readableWith: async (p, ids, nested, origin) => {
        const shown = await service.readable(p, ids);
        const resources = await presenter.resources(p, shown);
        return [...resources, ...((await presenter.included(p, shown, nested, origin)) ?? [])];
      },
      currentConfigurationVersions: async (p, workspaceIds) =>
        new Map(
          (await cvs.current(p, workspaceIds)).map((cv) => [
            cv.workspaceId,
            serializeConfigurationVersion(cv),
          ]),
        ),
    });
    relations.registerHolders('runs', readable);
    // A deleted workspace's (or organization's) configuration archives, logs and plans go with it.
    workspaceBlobs.register(async (manager, workspaceIds) => [
      ...workspaceIds.map(configurationBlobPrefix),
      ...(await runs.idsInWorkspaces(manager, workspaceIds)).map(runBlobPrefix),
    ]);
  }
}
