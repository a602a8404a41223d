import { Module } from '@nestjs/common';
import { OrganizationsModule } from '../organizations/organizations.module';
import { ProjectsModule } from '../projects/projects.module';
import { TeamsModule } from '../teams/teams.module';
import { WorkspacesModule } from '../workspaces/workspaces.module';
import { OrganizationLifecycleService } from './organization-lifecycle.service';
import { EntitlementSetController } from './entitlement-set.controller';
import { OrganizationsController } from './organizations.controller';

/** The /organizations routes and each organization's entitlement set. Nothing imports this module: other modules use OrganizationsModule. */
@Module({
  imports: [OrganizationsModule, TeamsModule, ProjectsModule, WorkspacesModule],
  controllers: [OrganizationsController, EntitlementSetController],
  providers: [OrganizationLifecycleService],
})
export class OrganizationLifecycleModule {}
