import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { AdminCatalogsModule } from '../admin-catalogs/admin-catalogs.module';
import { OrganizationBlobsRegistry } from '../organizations/organization-blobs.registry';
import { OrganizationsModule } from '../organizations/organizations.module';
import { ProjectsModule } from '../projects/projects.module';
import { TagBindingsModule } from '../tag-bindings/tag-bindings.module';
import { WorkspaceEntity } from './entities/workspace.entity';
import { WorkspaceIncludesService } from './workspace-includes.service';
import { WorkspaceByIdCache } from './workspace-by-id.cache';
import { WorkspaceListCache } from './workspace-list.cache';
import { WorkspaceUsage } from './workspace-usage';
import { WorkspacesController } from './workspaces.controller';
import { WorkspacesRepository } from './workspaces.repository';
import { AgentPoolCheckRegistry } from './agent-pool-check.registry';
import { WorkspaceBlobsRegistry } from './workspace-blobs.registry';
import { WorkspaceUnlockHooks } from './workspace-unlock.registry';
import { WorkspacesService } from './workspaces.service';
import { WorkspaceLocks } from './workspace-locks.service';
import { WorkspaceListing } from './workspace-listing.service';
import { UsersModule } from '../users/users.module';
import { WorkspaceRelationsRegistry } from './workspace-relations.registry';

@Module({
  imports: [
    TypeOrmModule.forFeature([WorkspaceEntity]),
    OrganizationsModule,
    ProjectsModule,
    AdminCatalogsModule,
    TagBindingsModule,
    UsersModule,
  ],
  controllers: [WorkspacesController],
  providers: [
    AgentPoolCheckRegistry,
    WorkspaceBlobsRegistry,
    WorkspaceUnlockHooks,
    WorkspacesRepository,
    WorkspacesService,
    WorkspaceLocks,
    WorkspaceListing,
    WorkspaceIncludesService,
    WorkspaceListCache,
    WorkspaceByIdCache,
    WorkspaceUsage,
    WorkspaceRelationsRegistry,
  ],
  exports: [
    WorkspacesService,
    WorkspaceLocks,
    AgentPoolCheckRegistry,
    WorkspaceBlobsRegistry,
    WorkspaceUnlockHooks,
    WorkspaceRelationsRegistry,
  ],
})
export class WorkspacesModule {
  constructor(organizationBlobs: OrganizationBlobsRegistry, workspaces: WorkspacesService) {
    // An organization's deletion removes its workspaces' files as well.
    organizationBlobs.register((manager, organizationId) =>
      workspaces.blobPrefixesInOrganization(manager, organizationId),
    );
  }
}
