import { IsIn } from 'class-validator';
import { WORKSPACE_ACCESS_LEVELS, WorkspaceAccessLevel } from '../entities/team-workspace.entity';

export class TeamWorkspaceAttributes {
  @IsIn(WORKSPACE_ACCESS_LEVELS, {
    message: `is not included in the list (${WORKSPACE_ACCESS_LEVELS.join(', ')})`,
  })
  access: WorkspaceAccessLevel;
}
