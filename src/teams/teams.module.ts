import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { OrganizationsModule } from '../organizations/organizations.module';
import { UsersModule } from '../users/users.module';
import { WorkspacesModule } from '../workspaces/workspaces.module';
import { WorkspaceRelationsRegistry } from '../workspaces/workspace-relations.registry';
import { TeamMembershipEntity } from './entities/team-membership.entity';
import { TeamWorkspaceEntity } from './entities/team-workspace.entity';
import { TeamEntity } from './entities/team.entity';
import { TeamWorkspacesController } from './team-workspaces.controller';
import { TeamWorkspacesService } from './team-workspaces.service';
import { TeamsController } from './teams.controller';
import { TeamsRepository } from './teams.repository';
import { TeamsService } from './teams.service';

@Module({
  imports: [
    TypeOrmModule.forFeature([TeamEntity, TeamMembershipEntity, TeamWorkspaceEntity]),
    OrganizationsModule,
    UsersModule,
    WorkspacesModule,
  ],
  controllers: [TeamsController, TeamWorkspacesController],
  providers: [TeamsRepository, TeamsService, TeamWorkspacesService],
  exports: [TeamsService],
})
export class TeamsModule {
  constructor(relations: WorkspaceRelationsRegistry, teams: TeamsService) {
    // A team holding a workspace's lock, in the workspace's `included` (`locked_by`).
    relations.registerHolders('teams', (p, ids) => teams.visibleResources(p, ids));
  }
}
