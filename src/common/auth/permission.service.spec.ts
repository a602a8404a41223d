import { TeamEntity } from '../../teams/entities/team.entity';
import { WorkspaceAccessLevel } from '../../teams/entities/team-workspace.entity';
import { AccessRepository } from './access.repository';
import { PermissionService } from './permission.service';
import { Principal } from './principal';

const user: Principal = {
  kind: 'user',
  tokenId: 'at-1',
  userId: 'user-1',
  username: 'u',
  isSiteAdmin: false,
};

function team(id: string, organizationId: string, extra: Partial<TeamEntity> = {}): TeamEntity {
  return Object.assign(new TeamEntity(), { id, organizationId, isOwners: false, ...extra });
}

describe('PermissionService.workspaceLevels', () => {
  let teams: Map<string, TeamEntity[]>;
  let grants: Map<string, WorkspaceAccessLevel[]>;
  let access: jest.Mocked<Pick<AccessRepository, 'teamsOfUserInOrganization' | 'accessLevelsByWorkspace'>>;
  let sut: PermissionService;

  beforeEach(() => {
    teams = new Map();
    grants = new Map();
    access = {
      teamsOfUserInOrganization: jest.fn(async (_: string, org: string) => teams.get(org) ?? []),
      accessLevelsByWorkspace: jest.fn(async (_: readonly string[], ids: readonly string[]) => {
        return new Map(ids.filter((id) => grants.has(id)).map((id) => [id, grants.get(id)!]));
      }),
    };
    sut = new PermissionService(access as unknown as AccessRepository);
  });

  it('reads the grants of many workspaces with one query per organization', async () => {
    teams.set('org-a', [team('team-1', 'org-a'), team('team-2', 'org-a')]);
    grants.set('ws-1', ['read', 'admin']);
    grants.set('ws-2', ['plan']);
    const levels = await sut.workspaceLevels(user, [
      { id: 'ws-1', organizationId: 'org-a' },
      { id: 'ws-2', organizationId: 'org-a' },
      { id: 'ws-3', organizationId: 'org-a' },
    ]);
    expect(levels).toEqual(
      new Map([
        ['ws-1', 'admin'],
        ['ws-2', 'plan'],
        ['ws-3', null],
      ]),
    );
    expect(access.accessLevelsByWorkspace).toHaveBeenCalledTimes(1);
    expect(access.accessLevelsByWorkspace).toHaveBeenCalledWith(
      ['team-1', 'team-2'],
      ['ws-1', 'ws-2', 'ws-3'],
    );
  });

  it('answers admin for owners and nothing for non-members without reading grants', async () => {
    teams.set('org-own', [team('owners', 'org-own', { isOwners: true })]);
    const levels = await sut.workspaceLevels(user, [
      { id: 'ws-1', organizationId: 'org-own' },
      { id: 'ws-2', organizationId: 'org-stranger' },
    ]);
    expect(levels).toEqual(
      new Map([
        ['ws-1', 'admin'],
        ['ws-2', null],
      ]),
    );
    expect(access.accessLevelsByWorkspace).not.toHaveBeenCalled();
  });

  it('counts read-workspaces as read where no team grant is higher', async () => {
    teams.set('org-a', [team('team-1', 'org-a', { readWorkspaces: true })]);
    grants.set('ws-1', ['write']);
    const levels = await sut.workspaceLevels(user, [
      { id: 'ws-1', organizationId: 'org-a' },
      { id: 'ws-2', organizationId: 'org-a' },
    ]);
    expect(levels).toEqual(
      new Map([
        ['ws-1', 'write'],
        ['ws-2', 'read'],
      ]),
    );
  });
});
