import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { AdminCatalogsModule } from '../admin-catalogs/admin-catalogs.module';
import { OrganizationsModule } from '../organizations/organizations.module';
import { ProjectsModule } from '../projects/projects.module';
import { TagBindingsModule } from '../tag-bindings/tag-bindings.module';
import { WorkspaceEntity } from './entities/workspace.entity';
import { WorkspaceIncludesService } from './workspace-includes.service';
import { WorkspaceListCache } from './workspace-list.cache';
import { WorkspaceUsage } from './workspace-usage';
import { WorkspacesController } from './workspaces.controller';
import { WorkspacesRepository } from './workspaces.repository';
import { AgentPoolCheckRegistry } from './agent-pool-check.registry';
import { WorkspacesService } from './workspaces.service';

@Module({
  imports: [
    TypeOrmModule.forFeature([WorkspaceEntity]),
    OrganizationsModule,
    ProjectsModule,
    AdminCatalogsModule,
    TagBindingsModule,
  ],
  controllers: [WorkspacesController],
  providers: [
    AgentPoolCheckRegistry,
    WorkspacesRepository,
    WorkspacesService,
    WorkspaceIncludesService,
    WorkspaceListCache,
    WorkspaceUsage,
  ],
  exports: [WorkspacesService, AgentPoolCheckRegistry],
})
export class WorkspacesModule {}
