import { FLAG_PROPERTY, ORGANIZATION_FLAGS, WORKSPACE_ACCESS_LEVELS } from '../common/auth/principal';
import { ResourceObject, toMany, toOne } from '../common/jsonapi/document';
import { bool, enumOf, int, ResourceDoc, str, timestamp } from '../common/jsonapi/openapi';
import { isoMillis } from '../common/jsonapi/timestamps';
import { organizationLinkage } from '../organizations/organizations.serializer';
import { TeamWorkspaceEntity } from './entities/team-workspace.entity';
import { TeamEntity } from './entities/team.entity';

export const TEAM_DOC: ResourceDoc = {
  type: 'teams',
  attributes: {
    name: str(),
    visibility: enumOf(['secret', 'organization']),
    'organization-access': {
      type: 'object',
      properties: Object.fromEntries(ORGANIZATION_FLAGS.map((f) => [f, bool()])),
    },
    'users-count': int(),
    'created-at': timestamp(),
    'updated-at': timestamp(),
  },
  relationships: { organization: { type: 'organizations' }, users: { type: 'users', many: true } },
  links: ['self'],
};

export const TEAM_WORKSPACE_DOC: ResourceDoc = {
  type: 'team-workspaces',
  attributes: {
    access: enumOf(WORKSPACE_ACCESS_LEVELS),
    'created-at': timestamp(),
    'updated-at': timestamp(),
  },
  relationships: { team: { type: 'teams' }, workspace: { type: 'workspaces' } },
  links: ['self'],
};

export function serializeTeam(team: TeamEntity, organizationName: string, userIds: string[]): ResourceObject {
  const access = Object.fromEntries(
    ORGANIZATION_FLAGS.map((f) => [f, team.isOwners || team[FLAG_PROPERTY[f]] === true]),
  );
  return {
    id: team.id,
    type: 'teams',
    attributes: {
      name: team.name,
      visibility: team.visibility,
      'organization-access': access,
      'users-count': userIds.length,
      'created-at': isoMillis(team.createdAt),
      'updated-at': isoMillis(team.updatedAt),
    },
    relationships: {
      organization: organizationLinkage(organizationName),
      users: toMany('users', userIds),
    },
    links: { self: `/api/v2/teams/${team.id}` },
  };
}

export function serializeTeamWorkspace(tw: TeamWorkspaceEntity): ResourceObject {
  return {
    id: tw.id,
    type: 'team-workspaces',
    attributes: {
      access: tw.access,
      'created-at': isoMillis(tw.createdAt),
      'updated-at': isoMillis(tw.updatedAt),
    },
    relationships: { team: toOne('teams', tw.teamId), workspace: toOne('workspaces', tw.workspaceId) },
    links: { self: `/api/v2/team-workspaces/${tw.id}` },
  };
}
