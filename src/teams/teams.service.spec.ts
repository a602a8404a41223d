import { DataSource, EntityManager, QueryFailedError } from 'typeorm';
import { PermissionService } from '../common/auth/permission.service';
import { Principal } from '../common/auth/principal';
import { lockRow } from '../common/sql/transaction';
import { ParsedBody } from '../common/jsonapi/body';
import { OrganizationEntity } from '../organizations/entities/organization.entity';
import { OrganizationsService } from '../organizations/organizations.service';
import { UserEntity } from '../users/entities/user.entity';
import { UsersService } from '../users/users.service';
import { CreateTeamAttributes, UpdateTeamAttributes } from './dto/team-attributes.dto';
import { TeamEntity } from './entities/team.entity';
import { TeamsRepository } from './teams.repository';
import { TeamsService } from './teams.service';

type Mocked<T> = { [K in keyof T]: jest.Mock };

const ann: Principal = {
  kind: 'user',
  tokenId: 'at-1',
  userId: 'user-ann',
  username: 'ann',
  isSiteAdmin: false,
};
const acme = Object.assign(new OrganizationEntity(), { id: 'org-1', name: 'acme' });

function body<A extends object>(attributes: A): ParsedBody<A> {
  return new ParsedBody(attributes, new Set(Object.keys(attributes)), {});
}

function team(overrides: Partial<TeamEntity> = {}): TeamEntity {
  return Object.assign(new TeamEntity(), {
    id: 'team-dev',
    organizationId: 'org-1',
    name: 'devs',
    isOwners: false,
    visibility: 'secret',
    managePolicies: false,
    manageWorkspaces: true,
    manageProjects: false,
    manageProviders: false,
    managePolicyOverrides: false,
    manageVariableSets: false,
    readWorkspaces: false,
    readProjects: false,
    ...overrides,
  });
}

const owners = () => team({ id: 'team-own', name: 'owners', isOwners: true, visibility: 'organization' });
const userNamed = (id: string, username: string) => Object.assign(new UserEntity(), { id, username });

describe(TeamsService.name, () => {
  let sut: TeamsService;
  let repo: Partial<Mocked<TeamsRepository>>;
  let permissions: Partial<Mocked<PermissionService>>;
  let users: Partial<Mocked<UsersService>>;
  let organizations: Partial<Mocked<OrganizationsService>>;
  let manager: EntityManager & { query: jest.Mock };

  beforeEach(() => {
    manager = {
      connection: { options: { type: 'mysql' }, getMetadata: () => ({ tableName: 'teams' }) },
      query: jest.fn().mockResolvedValue([{ id: 'locked' }]),
    } as unknown as EntityManager & { query: jest.Mock };
    const ds = {
      options: { type: 'mysql' },
      manager,
      transaction: jest.fn((work: (m: EntityManager) => Promise<unknown>) => work(manager)),
    } as unknown as DataSource;
    repo = {
      findTeam: jest.fn().mockResolvedValue(team()),
      saveTeam: jest.fn(async (_m, t: TeamEntity) => t),
      deleteTeam: jest.fn(),
      addMembers: jest.fn(),
      removeMembers: jest.fn(),
      countMembers: jest.fn().mockResolvedValue(1),
      memberIds: jest.fn(async (ids: string[]) => new Map(ids.map((id) => [id, []]))),
      lock: jest.fn((m: EntityManager, id: string) => lockRow(m, TeamEntity, id)),
    };
    permissions = {
      requireMember: jest.fn().mockResolvedValue({ owner: true, flags: new Set(), teamIds: [] }),
      requireOwner: jest.fn().mockResolvedValue(undefined),
    };
    users = {
      findByRefs: jest.fn().mockResolvedValue([userNamed('user-bob', 'bob'), userNamed('user-cat', 'cat')]),
    };
    organizations = {
      requireVisible: jest.fn().mockResolvedValue(acme),
      requireById: jest.fn().mockResolvedValue(acme),
    };
    sut = new TeamsService(
      repo as unknown as TeamsRepository,
      permissions as unknown as PermissionService,
      users as unknown as UsersService,
      organizations as unknown as OrganizationsService,
      ds,
    );
  });

  describe('create', () => {
    it('makes a secret team with exactly the flags it was sent, for owners', async () => {
      const view = await sut.create(
        ann,
        'acme',
        body<CreateTeamAttributes>({
          name: 'platform',
          'organization-access': {
            'manage-policies': true,
            'read-projects': true,
            'manage-providers': false,
          },
        }),
      );
      expect(permissions.requireOwner).toHaveBeenCalledWith(ann, 'org-1');
      expect(view.team).toMatchObject({
        organizationId: 'org-1',
        name: 'platform',
        isOwners: false,
        visibility: 'secret',
        managePolicies: true,
        manageWorkspaces: false,
        manageProjects: false,
        manageProviders: false,
        managePolicyOverrides: false,
        manageVariableSets: false,
        readWorkspaces: false,
        readProjects: true,
      });
      expect(view.team.id).toMatch(/^team-[0-9A-Za-z]{16}$/);
      expect(view.userIds).toEqual([]);
    });

    it('refuses the owners name and names already taken', async () => {
      await expect(
        sut.create(ann, 'acme', body<CreateTeamAttributes>({ name: 'owners' })),
      ).rejects.toMatchObject({
        code: 'NAME_TAKEN',
        items: [
          { detail: 'Name has already been taken', pointer: '/data/attributes/name', code: 'NAME_TAKEN' },
        ],
      });
      repo.saveTeam!.mockRejectedValue(
        new QueryFailedError(
          'INSERT',
          [],
          Object.assign(new Error('dup'), { code: 'SQLITE_CONSTRAINT_UNIQUE' }),
        ),
      );
      await expect(
        sut.create(ann, 'acme', body<CreateTeamAttributes>({ name: 'devs' })),
      ).rejects.toMatchObject({
        code: 'NAME_TAKEN',
        items: [
          { detail: 'Name has already been taken', pointer: '/data/attributes/name', code: 'NAME_TAKEN' },
        ],
      });
    });

    it('creates nothing for members who are not owners', async () => {
      permissions.requireOwner!.mockRejectedValue(new Error('not an owner'));
      await expect(sut.create(ann, 'acme', body<CreateTeamAttributes>({ name: 'x' }))).rejects.toThrow(
        'not an owner',
      );
      expect(repo.saveTeam).not.toHaveBeenCalled();
    });
  });

  describe('createOwnersTeam', () => {
    it('gives the owners team every flag and its creator as the only member', async () => {
      const created = await sut.createOwnersTeam(manager, 'org-1', 'user-ann');
      expect(created).toMatchObject({
        name: 'owners',
        isOwners: true,
        visibility: 'organization',
        managePolicies: true,
        manageWorkspaces: true,
        manageProjects: true,
        manageProviders: true,
        managePolicyOverrides: true,
        manageVariableSets: true,
        readWorkspaces: true,
        readProjects: true,
      });
      expect(repo.addMembers).toHaveBeenCalledWith(manager, created.id, ['user-ann']);
    });
  });

  describe('update', () => {
    it('changes only the flags it was sent', async () => {
      const view = await sut.update(
        ann,
        'team-dev',
        body<UpdateTeamAttributes>({ 'organization-access': { 'read-workspaces': true } }),
      );
      expect(view.team).toMatchObject({ name: 'devs', manageWorkspaces: true, readWorkspaces: true });
    });

    it('keeps the name and the flags of the owners team', async () => {
      repo.findTeam!.mockResolvedValue(owners());
      await expect(
        sut.update(ann, 'team-own', body<UpdateTeamAttributes>({ name: 'admins' })),
      ).rejects.toMatchObject({
        items: [{ detail: 'Name of the owners team cannot change', pointer: '/data/attributes/name' }],
      });
      await expect(
        sut.update(
          ann,
          'team-own',
          body<UpdateTeamAttributes>({ 'organization-access': { 'manage-policies': false } }),
        ),
      ).rejects.toMatchObject({ items: [{ pointer: '/data/attributes/organization-access' }] });
      await expect(
        sut.update(ann, 'team-own', body<UpdateTeamAttributes>({ visibility: 'secret' })),
      ).resolves.toMatchObject({ team: { visibility: 'secret' } });
    });

    it('refuses to rename another team to owners', async () => {
      await expect(
        sut.update(ann, 'team-dev', body<UpdateTeamAttributes>({ name: 'owners' })),
      ).rejects.toMatchObject({
        items: [{ detail: 'Name has already been taken' }],
      });
    });

    it('answers teams of organizations the caller cannot see with 404', async () => {
      repo.findTeam!.mockResolvedValue(null);
      await expect(sut.update(ann, 'team-x', body<UpdateTeamAttributes>({}))).rejects.toMatchObject({
        kind: 'not-found',
      });
    });
  });

  describe('delete', () => {
    it('never deletes the owners team', async () => {
      repo.findTeam!.mockResolvedValue(owners());
      await expect(sut.delete(ann, 'team-own')).rejects.toMatchObject({
        kind: 'invalid',
        items: [{ detail: 'The owners team cannot be deleted' }],
      });
      expect(repo.deleteTeam).not.toHaveBeenCalled();
    });

    it('deletes other teams for owners', async () => {
      await sut.delete(ann, 'team-dev');
      expect(repo.deleteTeam).toHaveBeenCalledWith(manager, 'team-dev');
    });
  });

  describe('membership', () => {
    it('adds users named by id or username, once each, under a lock on the team', async () => {
      await sut.addMembers(ann, 'team-dev', [
        { type: 'users', id: 'user-bob' },
        { type: 'users', id: 'cat' },
        { type: 'users', id: 'bob' },
      ]);
      expect(users.findByRefs).toHaveBeenCalledWith(['user-bob', 'cat', 'bob']);
      expect(manager.query).toHaveBeenCalledWith('SELECT id FROM teams WHERE id = ? FOR UPDATE', [
        'team-dev',
      ]);
      expect(repo.addMembers).toHaveBeenCalledWith(manager, 'team-dev', ['user-bob', 'user-cat']);
    });

    it('names every unknown user by its index and adds no one', async () => {
      await expect(
        sut.addMembers(ann, 'team-dev', [
          { type: 'users', id: 'ghost' },
          { type: 'users', id: 'bob' },
          { type: 'users', id: 'user-nope' },
        ]),
      ).rejects.toMatchObject({
        kind: 'invalid',
        items: [
          { detail: 'User ghost not found', pointer: '/data/0/id' },
          { detail: 'User user-nope not found', pointer: '/data/2/id' },
        ],
      });
      expect(repo.addMembers).not.toHaveBeenCalled();
    });

    it('keeps at least one member in the owners team', async () => {
      repo.findTeam!.mockResolvedValue(owners());
      repo.countMembers!.mockResolvedValue(0);
      await expect(sut.removeMembers(ann, 'team-own', [{ type: 'users', id: 'bob' }])).rejects.toMatchObject({
        items: [{ detail: 'The owners team must keep at least one member', pointer: '/data' }],
      });
      expect(manager.query).toHaveBeenCalledWith('SELECT id FROM teams WHERE id = ? FOR UPDATE', [
        'team-own',
      ]);
    });

    it('lets other teams become empty', async () => {
      repo.countMembers!.mockResolvedValue(0);
      await sut.removeMembers(ann, 'team-dev', [{ type: 'users', id: 'bob' }]);
      expect(repo.removeMembers).toHaveBeenCalledWith(manager, 'team-dev', ['user-bob']);
    });

    it('changes nothing for members who are not owners', async () => {
      permissions.requireOwner!.mockRejectedValue(new Error('not an owner'));
      await expect(sut.addMembers(ann, 'team-dev', [{ type: 'users', id: 'bob' }])).rejects.toThrow(
        'not an owner',
      );
      await expect(sut.removeMembers(ann, 'team-dev', [{ type: 'users', id: 'bob' }])).rejects.toThrow(
        'not an owner',
      );
      expect(repo.addMembers).not.toHaveBeenCalled();
      expect(repo.removeMembers).not.toHaveBeenCalled();
    });
  });
});
