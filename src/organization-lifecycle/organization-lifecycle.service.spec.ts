import { standingEpoch } from '../common/cache/change-epoch';
import { DataSource, EntityManager, QueryFailedError } from 'typeorm';
import { AuthCache } from '../common/auth/auth-cache';
import { PermissionService } from '../common/auth/permission.service';
import { Principal } from '../common/auth/principal';
import { ParsedBody } from '../common/jsonapi/body';
import { AppConfig } from '../config/app-config';
import { ProjectsService } from '../projects/projects.service';
import { TeamsService } from '../teams/teams.service';
import { WorkspacesService } from '../workspaces/workspaces.service';
import {
  CreateOrganizationAttributes,
  UpdateOrganizationAttributes,
} from './dto/organization-attributes.dto';
import { OrganizationLifecycleService } from './organization-lifecycle.service';
import { OrganizationEntity } from '../organizations/entities/organization.entity';
import { OrganizationsRepository } from '../organizations/organizations.repository';
import { BlobStore } from '../storage/blob-store';
import { OrganizationBlobsRegistry } from '../organizations/organization-blobs.registry';
import { DefaultProjectsRegistry } from '../organizations/default-projects.registry';
import { OrganizationsService } from '../organizations/organizations.service';

type Mocked<T> = { [K in keyof T]: jest.Mock };

const ann: Principal = {
  kind: 'user',
  tokenId: 'at-1',
  userId: 'user-ann',
  username: 'ann',
  isSiteAdmin: false,
};
const root: Principal = {
  kind: 'user',
  tokenId: 'at-0',
  userId: 'user-root',
  username: 'root',
  isSiteAdmin: true,
};
const orgToken: Principal = { kind: 'organization', tokenId: 'at-9', organizationId: 'org-1' };

function body<A extends object>(attributes: A): ParsedBody<A> {
  return new ParsedBody(attributes, new Set(Object.keys(attributes)), {});
}

function acme(overrides: Partial<OrganizationEntity> = {}): OrganizationEntity {
  return Object.assign(new OrganizationEntity(), {
    id: 'org-1',
    name: 'acme',
    email: 'ops@acme.example',
    edition: 'enterprise',
    createdAt: new Date('2024-01-01T00:00:00.000Z'),
    updatedAt: new Date('2024-01-01T00:00:00.000Z'),
    ...overrides,
  });
}

const duplicate = () =>
  new QueryFailedError('INSERT', [], Object.assign(new Error('dup'), { code: 'ER_DUP_ENTRY', errno: 1062 }));

describe(OrganizationLifecycleService.name, () => {
  let sut: OrganizationLifecycleService;
  let lookups: OrganizationsService;
  let repo: Mocked<OrganizationsRepository>;
  let permissions: Partial<Mocked<PermissionService>>;
  let teams: Partial<Mocked<TeamsService>>;
  let projects: Partial<Mocked<ProjectsService>>;
  let workspaces: Partial<Mocked<WorkspacesService>>;
  let manager: EntityManager;
  let blobPrefixes: OrganizationBlobsRegistry;
  let blobs: Partial<Mocked<BlobStore>>;
  const steps: string[] = [];

  beforeEach(() => {
    steps.length = 0;
    manager = { marker: 'tx' } as unknown as EntityManager;
    const ds = {
      options: { type: 'mysql' },
      transaction: jest.fn((work: (m: EntityManager) => Promise<unknown>) => work(manager)),
    } as unknown as DataSource;
    repo = {
      findByName: jest.fn().mockResolvedValue(acme()),
      findById: jest.fn(),
      listVisible: jest.fn().mockResolvedValue({ items: [], totalCount: 0, number: 1, size: 20 }),
      insert: jest.fn(async (_m, org: OrganizationEntity) => (steps.push(`insert ${org.name}`), org)),
      save: jest.fn(async (_m, org: OrganizationEntity) => (steps.push(`save ${org.name}`), org)),
      delete: jest.fn(async (_m, id: string) => void steps.push(`delete org ${id}`)),
      lock: jest.fn(),
    };
    teams = {
      createOwnersTeam: jest.fn(
        async (_m, orgId: string, userId: string) => void steps.push(`owners ${orgId} ${userId}`),
      ),
      memberOrganizationIds: jest.fn((userId: string) => ({ sql: '(members)', parameters: { userId } })),
    };
    permissions = {
      isSiteAdmin: jest.fn((p: Principal) => p.kind === 'user' && p.isSiteAdmin),
      requireMember: jest.fn().mockResolvedValue({ owner: true, flags: new Set(), teamIds: [] }),
      requireOwner: jest.fn().mockResolvedValue(undefined),
    };
    projects = {
      createDefaultProject: jest.fn(async (_m, orgId: string) => void steps.push(`default project ${orgId}`)),
    };
    workspaces = {
      deleteAllInOrganization: jest.fn(
        async (_m, orgId: string) => void steps.push(`delete workspaces ${orgId}`),
      ),
    };
    const config = new AppConfig({
      DEFAULT_EDITION: 'free',
      SIGNING_SECRET: 'organizations-unit-test-signing-secret',
      DATABASE_URL: 'sqlite::memory:',
    });
    blobPrefixes = new OrganizationBlobsRegistry();
    blobPrefixes.register(async (_m, orgId) => (steps.push(`collect files ${orgId}`), [`files/${orgId}`]));
    blobs = { deletePrefix: jest.fn(async (prefix: string) => void steps.push(`delete files ${prefix}`)) };
    lookups = new OrganizationsService(
      repo as unknown as OrganizationsRepository,
      permissions as unknown as PermissionService,
      new AuthCache(config, standingEpoch()),
      new DefaultProjectsRegistry(),
    );
    sut = new OrganizationLifecycleService(
      lookups,
      permissions as unknown as PermissionService,
      config,
      ds,
      teams as unknown as TeamsService,
      projects as unknown as ProjectsService,
      workspaces as unknown as WorkspacesService,
      blobPrefixes,
      blobs as unknown as BlobStore,
    );
  });

  describe('create', () => {
    it('makes the organization, its owners team with the creator and its Default Project in one transaction', async () => {
      const org = await sut.create(
        ann,
        body<CreateOrganizationAttributes>({ name: 'acme', email: 'a@acme.example' }),
      );
      expect(org).toMatchObject({ name: 'acme', email: 'a@acme.example', edition: 'free' });
      expect(org.id).toMatch(/^org-[0-9A-Za-z]{16}$/);
      expect(org.createdAt).toEqual(org.updatedAt);
      expect(steps).toEqual(['insert acme', `owners ${org.id} user-ann`, `default project ${org.id}`]);
      for (const call of [repo.insert, teams.createOwnersTeam!, projects.createDefaultProject!])
        expect(call.mock.calls[0][0]).toBe(manager);
    });

    it('refuses team and organization tokens', async () => {
      await expect(
        sut.create(orgToken, body<CreateOrganizationAttributes>({ name: 'x', email: 'x@example.com' })),
      ).rejects.toMatchObject({ kind: 'not-found' });
      expect(repo.insert).not.toHaveBeenCalled();
    });

    it('lets only site administrators choose the edition', async () => {
      await expect(
        sut.create(
          ann,
          body<CreateOrganizationAttributes>({ name: 'x', email: 'x@example.com', edition: 'enterprise' }),
        ),
      ).rejects.toMatchObject({
        kind: 'invalid',
        items: [
          { detail: 'Edition can only be set by a site administrator', pointer: '/data/attributes/edition' },
        ],
      });
      const org = await sut.create(
        root,
        body<CreateOrganizationAttributes>({ name: 'x', email: 'x@example.com', edition: 'enterprise' }),
      );
      expect(org.edition).toBe('enterprise');
    });

    it('turns a duplicate name into "Name has already been taken"', async () => {
      teams.createOwnersTeam!.mockRejectedValue(duplicate());
      await expect(
        sut.create(ann, body<CreateOrganizationAttributes>({ name: 'acme', email: 'a@acme.example' })),
      ).rejects.toMatchObject({
        kind: 'invalid',
        code: 'NAME_TAKEN',
        items: [{ detail: 'Name has already been taken', pointer: '/data/attributes/name' }],
      });
    });

    it('lets other database failures through untouched', async () => {
      const boom = new Error('disk full');
      repo.insert.mockRejectedValue(boom);
      await expect(
        sut.create(ann, body<CreateOrganizationAttributes>({ name: 'acme', email: 'a@acme.example' })),
      ).rejects.toBe(boom);
    });
  });

  describe('update', () => {
    it('needs owner rights', async () => {
      permissions.requireOwner!.mockRejectedValue(new Error('not an owner'));
      await expect(
        sut.update(ann, 'acme', body<UpdateOrganizationAttributes>({ email: 'b@acme.example' })),
      ).rejects.toThrow('not an owner');
      expect(repo.save).not.toHaveBeenCalled();
    });

    it('changes only the attributes it was sent', async () => {
      const org = await sut.update(
        ann,
        'acme',
        body<UpdateOrganizationAttributes>({ email: 'b@acme.example' }),
      );
      expect(org).toMatchObject({ name: 'acme', email: 'b@acme.example', edition: 'enterprise' });
      expect(org.updatedAt.getTime()).toBeGreaterThan(org.createdAt.getTime());
    });

    it('lets owners resend the current edition but only site administrators change it', async () => {
      await expect(
        sut.update(ann, 'acme', body<UpdateOrganizationAttributes>({ edition: 'enterprise' })),
      ).resolves.toMatchObject({ edition: 'enterprise' });
      await expect(
        sut.update(ann, 'acme', body<UpdateOrganizationAttributes>({ edition: 'free' })),
      ).rejects.toMatchObject({
        items: [
          {
            detail: 'Edition can only be changed by a site administrator',
            pointer: '/data/attributes/edition',
          },
        ],
      });
      await expect(
        sut.update(root, 'acme', body<UpdateOrganizationAttributes>({ edition: 'free' })),
      ).resolves.toMatchObject({
        edition: 'free',
      });
    });

    it('turns a rename onto a taken name into a 422', async () => {
      repo.save.mockRejectedValue(duplicate());
      await expect(
        sut.update(ann, 'acme', body<UpdateOrganizationAttributes>({ name: 'taken' })),
      ).rejects.toMatchObject({
        items: [{ detail: 'Name has already been taken', pointer: '/data/attributes/name' }],
      });
    });

    it('answers a missing organization with 404', async () => {
      repo.findByName.mockResolvedValue(null);
      await expect(sut.update(ann, 'nope', body<UpdateOrganizationAttributes>({}))).rejects.toMatchObject({
        kind: 'not-found',
      });
    });
  });

  describe('delete', () => {
    it('removes the workspaces before the organization, in one transaction, then its files', async () => {
      await sut.delete(ann, 'acme');
      expect(permissions.requireOwner).toHaveBeenCalledWith(ann, 'org-1');
      expect(steps).toEqual([
        'collect files org-1',
        'delete workspaces org-1',
        'delete org org-1',
        'delete files files/org-1',
      ]);
    });

    it('keeps the deletion when a file cannot be removed', async () => {
      blobs.deletePrefix!.mockRejectedValue(new Error('disk gone'));
      await expect(sut.delete(ann, 'acme')).resolves.toBeUndefined();
      expect(steps).toContain('delete org org-1');
    });

    it('deletes nothing for non-owners', async () => {
      permissions.requireOwner!.mockRejectedValue(new Error('not an owner'));
      await expect(sut.delete(ann, 'acme')).rejects.toThrow('not an owner');
      expect(steps).toEqual([]);
    });
  });

  describe('lookups', () => {
    it('read an organization once and hand each caller its own copy', async () => {
      const first = await lookups.requireByName('acme');
      first.name = 'changed by a caller';
      expect((await lookups.requireByName('acme')).name).toBe('acme');
      expect(repo.findByName).toHaveBeenCalledTimes(1);
    });

    it('keep the stored organization when a rename fails', async () => {
      repo.save.mockRejectedValueOnce(duplicate());
      await expect(
        sut.update(ann, 'acme', body<UpdateOrganizationAttributes>({ name: 'taken' })),
      ).rejects.toThrow();
      expect((await lookups.requireByName('acme')).name).toBe('acme');
    });

    it('do not remember a missing organization', async () => {
      repo.findByName.mockResolvedValueOnce(null);
      await expect(lookups.requireByName('acme')).rejects.toMatchObject({ kind: 'not-found' });
      expect((await lookups.requireByName('acme')).name).toBe('acme');
    });
  });

  describe('list', () => {
    const page = { number: 1, size: 20 };

    it('shows site administrators every organization', async () => {
      await sut.list(root, page);
      expect(repo.listVisible).toHaveBeenCalledWith({ all: true }, page);
    });

    it('shows users the organizations they belong to', async () => {
      await sut.list(ann, page);
      expect(repo.listVisible).toHaveBeenCalledWith(
        { idsIn: { sql: '(members)', parameters: { userId: 'user-ann' } } },
        page,
      );
    });

    it('shows a token its own organization', async () => {
      await sut.list(orgToken, page);
      expect(repo.listVisible).toHaveBeenCalledWith({ organizationId: 'org-1' }, page);
    });
  });
});
