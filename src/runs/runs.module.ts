import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
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
import { RunJobsRepository } from './run-jobs.repository';
import { RunLinks } from './run-links';
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
  ],
  controllers: [ConfigurationVersionsController, RunsController, RunPhasesController],
  providers: [
    ConfigurationVersionsRepository,
    RunsRepository,
    RunJobsRepository,
    RunLinks,
    RunQueueService,
    ConfigurationVersionsService,
    RunsService,
    RunsPresenter,
  ],
})
export class RunsModule {}
