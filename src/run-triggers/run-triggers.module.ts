import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { OrganizationsModule } from '../organizations/organizations.module';
import { WorkspacesModule } from '../workspaces/workspaces.module';
import { RunTriggerEntity } from './entities/run-trigger.entity';
import { OutboundTriggersCache } from './outbound-triggers.cache';
import { RunTriggersController } from './run-triggers.controller';
import { RunTriggersRepository } from './run-triggers.repository';
import { RunTriggersService } from './run-triggers.service';

@Module({
  imports: [TypeOrmModule.forFeature([RunTriggerEntity]), OrganizationsModule, WorkspacesModule],
  controllers: [RunTriggersController],
  providers: [RunTriggersRepository, RunTriggersService, OutboundTriggersCache],
  exports: [RunTriggersService],
})
export class RunTriggersModule {}
