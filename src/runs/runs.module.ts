import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { AgentPoolsModule } from '../agent-pools/agent-pools.module';
import { OrganizationsModule } from '../organizations/organizations.module';
import { RunTriggersModule } from '../run-triggers/run-triggers.module';
import { UsersModule } from '../users/users.module';
import { WorkspacesModule } from '../workspaces/workspaces.module';
import { ConfigurationVersionsController } from './configuration-versions.controller';
import { ConfigurationVersionsRepository } from './configuration-versions.repository';
import { ConfigurationVersionsService } from './configuration-versions.service';
import { ConfigurationVersionEntity } from './entities/configuration-version.entity';
import { RunJobEntity } from './entities/run-job.entity';
import { RunPhaseEntity } from './entities/run-phase.entity';
import { RunTriggerOutcomeEntity } from './entities/run-trigger-outcome.entity';
import { RunEntity } from './entities/run.entity';
import { RunJobsController } from './run-jobs.controller';
import { RunJobsRepository } from './run-jobs.repository';
import { RunJobsService } from './run-jobs.service';
import { RunTimeoutsService } from './run-timeouts.service';
import { RunTriggerFiring } from './run-trigger-firing';
import { RunLinks } from './run-links';
import { PolicyGateRegistry } from './policy-gate.registry';
import { RunPolicyTransitions } from './run-policy-transitions';
import { RunPhasesController } from './run-phases.controller';
import { RunQueueService } from './run-queue.service';
import { RunsController } from './runs.controller';
import { RunsPresenter } from './runs.presenter';
import { RunsRepository } from './runs.repository';
import { RunsService } from './runs.service';

@Module({
  imports: [
    TypeOrmModule.forFeature([
      ConfigurationVersionEntity,
      RunEntity,
      RunPhaseEntity,
      RunJobEntity,
      RunTriggerOutcomeEntity,
    ]),
    WorkspacesModule,
    UsersModule,
    OrganizationsModule,
    RunTriggersModule,
    AgentPoolsModule,
  ],
  controllers: [ConfigurationVersionsController, RunsController, RunPhasesController, RunJobsController],
  providers: [
    ConfigurationVersionsRepository,
    RunsRepository,
    RunJobsRepository,
    RunLinks,
    RunQueueService,
    ConfigurationVersionsService,
    RunsService,
    RunsPresenter,
    RunTriggerFiring,
    RunJobsService,
    RunTimeoutsService,
    PolicyGateRegistry,
    RunPolicyTransitions,
  ],
  exports: [RunsService, RunsPresenter, RunPolicyTransitions, PolicyGateRegistry, RunLinks],
})
export class RunsModule {}
