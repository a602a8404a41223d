import { ChangeEpoch, standingEpoch } from '../cache/change-epoch';
import { MemoryEpochStore } from '../cache/memory-epoch-store.testing';
import { currentReadSet } from '../cache/read-set';
import { AppConfig } from '../../config/app-config';
import { TeamEntity } from '../../teams/entities/team.entity';
import { DomainError } from '../errors/domain-error';
import { contextOf, RequestContext } from '../request-context';
import { AccessRepository } from './access.repository';
import { AuthCache } from './auth-cache';
import { PermissionService } from './permission.service';
import { Principal } from './principal';

type AccessMock = { [K in keyof AccessRepository]: jest.Mock };

function team(overrides: Partial<TeamEntity> = {}): TeamEntity {
  return Object.assign(new TeamEntity(), {
    id: 'team-a',
    organizationId: 'org-1',
    name: 'devs',
    isOwners: false,
    visibility: 'secret',
    managePolicies: false,
    manageWorkspaces: false,
    manageProjects: false,
    manageProviders: false,
    managePolicyOverrides: false,
    manageVariableSets: false,
    readWorkspaces: false,
    readProjects: false,
    ...overrides,
  });
}

const user = (overrides: Partial<Extract<Principal, { kind: 'user' }>> = {}): Principal => ({
  kind: 'user',
  tokenId: 'at-1',
  userId: 'user-1',
  username: 'ann',
  isSiteAdmin: false,
  ...overrides,
});
const teamToken = (teamId = 'team-a', organizationId = 'org-1'): Principal => ({
  kind: 'team',
  tokenId: 'at-2',
  teamId,
  organizationId,
});
const orgToken = (organizationId = 'org-1'): Principal => ({
  kind: 'organization',
  tokenId: 'at-3',
  organizationId,
});

const ws = (id: string, organizationId = 'org-1') => ({ id, organizationId });

const cacheFor = (cacheTtlMs: number) => new AuthCache({ cacheTtlMs } as AppConfig, standingEpoch());

describe(PermissionService.name, () => {
  let sut: PermissionService;
  let access: AccessMock;

  beforeEach(() => {
    access = {
      findToken: jest.fn(),
      teamsOfUserInOrganization: jest.fn().mockResolvedValue([]),
      team: jest.fn().mockResolvedValue(null),
      accessGrants: jest.fn().mockResolvedValue([]),
      projectsWithTeamWorkspaces: jest.fn().mockResolvedValue(new Set()),
      ownedOrganizationIds: jest.fn().mockResolvedValue(new Set()),
    };
    sut = new PermissionService(access as unknown as AccessRepository, cacheFor(0));
  });

  const expectNotFound = async (work: Promise<unknown>) => {
    await expect(work).rejects.toBeInstanceOf(DomainError);
    await expect(work).rejects.toMatchObject({ kind: 'not-found' });
  };

  describe('organization owners', () => {
    it('gives members of the owners team every flag and admin on every workspace', async () => {
      access.teamsOfUserInOrganization.mockResolvedValue([team({ id: 'team-o', isOwners: true })]);
      const p = user();
      expect(await sut.isOwner(p, 'org-1')).toBe(true);
      expect(await sut.hasFlag(p, 'org-1', 'manage-providers')).toBe(true);
      expect(await sut.workspaceLevel(p, ws('ws-1'))).toBe('admin');
      expect(access.accessGrants).not.toHaveBeenCalled();
    });

    it('answers non-members with the 404 of a missing resource', async () => {
      const p = user();
      expect(await sut.organizationAccess(p, 'org-1')).toBeNull();
      await expectNotFound(sut.requireMember(p, 'org-1'));
      await expectNotFound(sut.requireOwner(p, 'org-1'));
      expect(await sut.workspaceLevel(p, ws('ws-1'))).toBeNull();
    });
  });

  describe('within a request', () => {
    const holder = { principal: user(), expiresAt: null };

    it('asks the database once per organization and request', async () => {
      const p = new RequestContext().actAs(holder);
      await sut.isMember(p, 'org-1');
      await sut.hasFlag(p, 'org-1', 'manage-policies');
      await sut.isOwner(p, 'org-1');
      expect(access.teamsOfUserInOrganization).toHaveBeenCalledTimes(1);
      await sut.isMember(new RequestContext().actAs(holder), 'org-1');
      expect(access.teamsOfUserInOrganization).toHaveBeenCalledTimes(2);
    });

    it('notes the first organization the principal was found a member of as the one it acted in', async () => {
      access.teamsOfUserInOrganization.mockImplementation((_: string, organizationId: string) =>
        Promise.resolve(organizationId === 'org-1' ? [] : [team({ organizationId })]),
      );
      const p = new RequestContext().actAs(holder);
      expect(await sut.isMember(p, 'org-1')).toBe(false);
      expect(contextOf(p)!.actingOrganization).toBeUndefined();
      await sut.isMember(p, 'org-2');
      await sut.isMember(p, 'org-3');
      expect(contextOf(p)!.actingOrganization).toBe('org-2');
    });

    it('keeps what one request learns from the other requests of the same token', async () => {
      access.teamsOfUserInOrganization.mockResolvedValue([team()]);
      const first = new RequestContext().actAs(holder);
      const second = new RequestContext().actAs(holder);
      await sut.isMember(first, 'org-1');
      expect(contextOf(first)!.actingOrganization).toBe('org-1');
      expect(contextOf(second)!.actingOrganization).toBeUndefined();
      expect(contextOf(second)!.organizationAccess).toBeUndefined();
      expect(contextOf(holder.principal)).toBeUndefined();
      expect(second).toEqual(holder.principal);
    });

    it('memoises nothing for a principal made outside any request', async () => {
      const p = user();
      await sut.isMember(p, 'org-1');
      await sut.isMember(p, 'org-1');
      expect(access.teamsOfUserInOrganization).toHaveBeenCalledTimes(2);
    });
  });

  describe('organization-access flags', () => {
    it('grants the flags of any team the user is in, and no others', async () => {
      access.teamsOfUserInOrganization.mockResolvedValue([
        team({ id: 'team-a', managePolicies: true }),
        team({ id: 'team-b', readProjects: true }),
      ]);
      const p = user();
      expect(await sut.isOwner(p, 'org-1')).toBe(false);
      expect(await sut.hasFlag(p, 'org-1', 'manage-policies')).toBe(true);
      expect(await sut.hasFlag(p, 'org-1', 'read-projects')).toBe(true);
      expect(await sut.hasFlag(p, 'org-1', 'manage-workspaces')).toBe(false);
      await expect(sut.requireFlag(p, 'org-1', 'manage-policies')).resolves.toBeUndefined();
      await expectNotFound(sut.requireFlag(p, 'org-1', 'manage-providers'));
      expect((await sut.requireMember(p, 'org-1')).teamIds).toEqual(['team-a', 'team-b']);
    });
  });

  describe('workspace levels', () => {
    it('takes the highest level any of the user’s teams was given', async () => {
      access.teamsOfUserInOrganization.mockResolvedValue([team({ id: 'team-a' }), team({ id: 'team-b' })]);
      access.accessGrants.mockResolvedValue([
        { workspaceId: 'ws-1', access: 'read' },
        { workspaceId: 'ws-1', access: 'write' },
        { workspaceId: 'ws-1', access: 'plan' },
      ]);
      const p = user();
      expect(await sut.workspaceLevel(p, ws('ws-1'))).toBe('write');
      expect(access.accessGrants).toHaveBeenCalledWith(['team-a', 'team-b'], ['ws-1']);
      expect(await sut.hasWorkspaceLevel(p, ws('ws-1'), 'plan')).toBe(true);
      expect(await sut.hasWorkspaceLevel(p, ws('ws-1'), 'admin')).toBe(false);
      await expectNotFound(sut.requireWorkspaceLevel(p, ws('ws-1'), 'admin'));
    });

    it('gives read-workspaces a read floor that grants can raise', async () => {
      access.teamsOfUserInOrganization.mockResolvedValue([team({ readWorkspaces: true })]);
      access.accessGrants.mockResolvedValue([{ workspaceId: 'ws-2', access: 'plan' }]);
      const levels = await sut.workspaceLevels(user(), [ws('ws-1'), ws('ws-2')]);
      expect(levels).toEqual(
        new Map([
          ['ws-1', 'read'],
          ['ws-2', 'plan'],
        ]),
      );
      expect(access.accessGrants).toHaveBeenCalledTimes(1);
    });

    it('gives manage-workspaces admin everywhere in the organization', async () => {
      access.teamsOfUserInOrganization.mockResolvedValue([team({ manageWorkspaces: true })]);
      expect(await sut.workspaceLevel(user(), ws('ws-1'))).toBe('admin');
      expect(access.accessGrants).not.toHaveBeenCalled();
    });

    it('leaves a member without grants or flags with no access', async () => {
      access.teamsOfUserInOrganization.mockResolvedValue([team()]);
      expect(await sut.workspaceLevel(user(), ws('ws-1'))).toBeNull();
      expect(await sut.workspaceReadScope(user(), 'org-1')).toEqual({ teamIds: ['team-a'] });
    });

    it('reads every workspace of the organization with read-workspaces', async () => {
      access.teamsOfUserInOrganization.mockImplementation(async (_: string, org: string) =>
        org === 'org-1' ? [team({ readWorkspaces: true })] : [],
      );
      expect(await sut.workspaceReadScope(user(), 'org-1')).toEqual({ all: true });
      await expectNotFound(sut.workspaceReadScope(user(), 'org-2'));
    });

    it('answers each organization of a mixed batch on its own terms', async () => {
      access.teamsOfUserInOrganization.mockImplementation(async (_: string, org: string) =>
        org === 'org-1' ? [team({ isOwners: true })] : [],
      );
      const levels = await sut.workspaceLevels(user(), [ws('ws-1', 'org-1'), ws('ws-9', 'org-9')]);
      expect(levels.get('ws-1')).toBe('admin');
      expect(levels.get('ws-9')).toBeNull();
    });
  });

  describe('team tokens', () => {
    it('act with the flags and grants of their team, in its organization only', async () => {
      access.team.mockResolvedValue(team({ id: 'team-a', manageProjects: true }));
      access.accessGrants.mockResolvedValue([{ workspaceId: 'ws-1', access: 'write' }]);
      const p = teamToken();
      expect(await sut.hasFlag(p, 'org-1', 'manage-projects')).toBe(true);
      expect(await sut.hasFlag(p, 'org-1', 'manage-policies')).toBe(false);
      expect(await sut.isOwner(p, 'org-1')).toBe(false);
      expect(await sut.workspaceLevel(p, ws('ws-1'))).toBe('write');
      expect(access.accessGrants).toHaveBeenCalledWith(['team-a'], ['ws-1']);
      expect(await sut.organizationAccess(p, 'org-2')).toBeNull();
      expect(access.teamsOfUserInOrganization).not.toHaveBeenCalled();
    });

    it('of the owners team act as owners', async () => {
      access.team.mockResolvedValue(team({ isOwners: true }));
      expect(await sut.isOwner(teamToken(), 'org-1')).toBe(true);
      expect(await sut.ownedOrganizationIds(teamToken(), ['org-1', 'org-2'])).toEqual(new Set(['org-1']));
    });

    it('of a deleted team have no rights', async () => {
      expect(await sut.isMember(teamToken(), 'org-1')).toBe(false);
    });
  });

  describe('organization tokens', () => {
    it('act as owners of their organization and nowhere else', async () => {
      const p = orgToken('org-1');
      expect(await sut.isOwner(p, 'org-1')).toBe(true);
      expect(await sut.hasFlag(p, 'org-1', 'manage-policies')).toBe(true);
      expect(await sut.workspaceLevel(p, ws('ws-1'))).toBe('admin');
      expect(await sut.isMember(p, 'org-2')).toBe(false);
      expect(await sut.workspaceLevel(p, ws('ws-5', 'org-2'))).toBeNull();
      expect(await sut.ownedOrganizationIds(p, ['org-1', 'org-2'])).toEqual(new Set(['org-1']));
      expect(access.team).not.toHaveBeenCalled();
    });
  });

  describe('site administrators', () => {
    it('act as owners in every organization, member or not', async () => {
      const p = user({ isSiteAdmin: true });
      expect(sut.isSiteAdmin(p)).toBe(true);
      expect(await sut.isOwner(p, 'org-7')).toBe(true);
      expect(await sut.workspaceLevel(p, ws('ws-1', 'org-7'))).toBe('admin');
      expect(await sut.ownedOrganizationIds(p, ['org-1', 'org-7'])).toEqual(new Set(['org-1', 'org-7']));
      expect(access.ownedOrganizationIds).not.toHaveBeenCalled();
    });

    it('keep the teams they belong to', async () => {
      access.teamsOfUserInOrganization.mockResolvedValue([team({ id: 'team-x' })]);
      const got = await sut.requireMember(user({ isSiteAdmin: true }), 'org-1');
      expect(got.owner).toBe(true);
      expect(got.teamIds).toEqual(['team-x']);
    });

    it('are recognised only on user tokens', () => {
      expect(sut.isSiteAdmin(user())).toBe(false);
      expect(sut.isSiteAdmin(orgToken())).toBe(false);
      expect(sut.isSiteAdmin(teamToken())).toBe(false);
    });
  });

  describe('owned organizations of a user', () => {
    it('come from one query', async () => {
      access.ownedOrganizationIds.mockResolvedValue(new Set(['org-2']));
      expect(await sut.ownedOrganizationIds(user(), ['org-1', 'org-2', 'org-2'])).toEqual(new Set(['org-2']));
      expect(access.ownedOrganizationIds).toHaveBeenCalledWith('user-1', ['org-1', 'org-2']);
    });
  });

  describe('projects', () => {
    const prj = (id: string) => ({ id, organizationId: 'org-1' });

    it.each(['manage-projects', 'read-projects', 'manage-workspaces', 'read-workspaces'] as const)(
      'lets %s read every project',
      async (flag) => {
        const column = {
          'manage-projects': 'manageProjects',
          'read-projects': 'readProjects',
          'manage-workspaces': 'manageWorkspaces',
          'read-workspaces': 'readWorkspaces',
        }[flag];
        access.teamsOfUserInOrganization.mockResolvedValue([team({ [column]: true })]);
        expect(await sut.readableProjectIds(user(), [prj('prj-1'), prj('prj-2')])).toEqual(
          new Set(['prj-1', 'prj-2']),
        );
        expect(await sut.projectReadScope(user(), 'org-1')).toEqual({ all: true });
        expect(access.projectsWithTeamWorkspaces).not.toHaveBeenCalled();
      },
    );

    it('lets other members read the projects holding a workspace their teams can access', async () => {
      access.teamsOfUserInOrganization.mockResolvedValue([team({ id: 'team-a' })]);
      access.projectsWithTeamWorkspaces.mockResolvedValue(new Set(['prj-2']));
      expect(await sut.readableProjectIds(user(), [prj('prj-1'), prj('prj-2')])).toEqual(new Set(['prj-2']));
      expect(access.projectsWithTeamWorkspaces).toHaveBeenCalledWith(['team-a'], ['prj-1', 'prj-2']);
      expect(await sut.canReadProject(user(), prj('prj-1'))).toBe(false);
      expect(await sut.projectReadScope(user(), 'org-1')).toEqual({ teamIds: ['team-a'] });
    });

    it('hides every project from non-members', async () => {
      expect(await sut.readableProjectIds(user(), [prj('prj-1')])).toEqual(new Set());
      await expectNotFound(sut.requireProjectRead(user(), prj('prj-1')));
    });
  });

  describe('across requests', () => {
    beforeEach(() => {
      sut = new PermissionService(access as unknown as AccessRepository, cacheFor(60_000));
      access.teamsOfUserInOrganization.mockResolvedValue([team({ managePolicies: true })]);
    });

    it('reuses the rights of the same user in the same organization', async () => {
      expect(await sut.hasFlag(user(), 'org-1', 'manage-policies')).toBe(true);
      expect(await sut.hasFlag(user({ tokenId: 'at-other' }), 'org-1', 'manage-policies')).toBe(true);
      expect(access.teamsOfUserInOrganization).toHaveBeenCalledTimes(1);
      await sut.isMember(user({ userId: 'user-2' }), 'org-1');
      await sut.isMember(user(), 'org-2');
      expect(access.teamsOfUserInOrganization).toHaveBeenCalledTimes(3);
    });

    it('reads the rights again once this process wrote the memberships, without being told to forget', async () => {
      const epoch = new ChangeEpoch(new MemoryEpochStore());
      sut = new PermissionService(
        access as unknown as AccessRepository,
        new AuthCache({ cacheTtlMs: 60_000 } as AppConfig, epoch),
      );
      // What the statement tracking notes for the query behind the rights.
      access.teamsOfUserInOrganization.mockImplementation(() => {
        currentReadSet()?.add(['teams', 'team_memberships']);
        return Promise.resolve([team({ managePolicies: true })]);
      });
      expect(await sut.hasFlag(user(), 'org-1', 'manage-policies')).toBe(true);
      epoch.wrote(['workspaces']);
      expect(await sut.hasFlag(user({ tokenId: 'at-2' }), 'org-1', 'manage-policies')).toBe(true);
      expect(access.teamsOfUserInOrganization).toHaveBeenCalledTimes(1);
      access.teamsOfUserInOrganization.mockResolvedValue([]);
      epoch.wrote(['team_memberships']);
      expect(await sut.isMember(user({ tokenId: 'at-3' }), 'org-1')).toBe(false);
      expect(access.teamsOfUserInOrganization).toHaveBeenCalledTimes(2);
    });

    it('keeps site administrators apart from the same user without the flag', async () => {
      await sut.isOwner(user(), 'org-1');
      expect(await sut.isOwner(user({ isSiteAdmin: true }), 'org-1')).toBe(true);
      expect(access.teamsOfUserInOrganization).toHaveBeenCalledTimes(2);
    });
  });
});
