import { DataSource, EntityManager, QueryFailedError } from 'typeorm';
import { PermissionService } from '../common/auth/permission.service';
import { Principal } from '../common/auth/principal';
import { DomainError, notFound } from '../common/errors/domain-error';
import { lockRow } from '../common/sql/transaction';
import { OrganizationEntity } from '../organizations/entities/organization.entity';
import { OrganizationsService } from '../organizations/organizations.service';
import { ReservedTagKeyEntity } from './entities/reserved-tag-key.entity';
import { ReservedTagKeysRepository } from './reserved-tag-keys.repository';
import { ReservedTagKeysService } from './reserved-tag-keys.service';

const principal: Principal = { kind: 'user', tokenId: 't', userId: 'u', username: 'u', isSiteAdmin: false };
const org = Object.assign(new OrganizationEntity(), { id: 'org-1', name: 'acme' });

function missingParentError(): QueryFailedError {
  return new QueryFailedError(
    'INSERT',
    [],
    Object.assign(new Error('fk'), { code: 'ER_NO_REFERENCED_ROW_2', errno: 1452 }),
  );
}

async function kindOf(promise: Promise<unknown>): Promise<[string, string | undefined]> {
  try {
    await promise;
  } catch (err) {
    if (err instanceof DomainError) return [err.kind, err.items[0]?.detail];
    throw err;
  }
  throw new Error('expected a domain error');
}

describe('ReservedTagKeysService', () => {
  let sut: ReservedTagKeysService;
  let repo: jest.Mocked<
    Pick<
      ReservedTagKeysRepository,
      'findById' | 'findClash' | 'insertUnlessTaken' | 'update' | 'delete' | 'overrideLocked'
    >
  >;
  let permissions: jest.Mocked<Pick<PermissionService, 'requireOwner' | 'requireMember'>>;
  let manager: { query: jest.Mock; connection: unknown };

  beforeEach(() => {
    manager = {
      query: jest.fn().mockResolvedValue([{ id: org.id }]),
      connection: { options: { type: 'mysql' }, getMetadata: () => ({ tableName: 'organizations' }) },
    };
    const ds = {
      options: { type: 'mysql' },
      transaction: jest.fn((work: (m: EntityManager) => Promise<unknown>) => work(manager as never)),
    };
    repo = {
      findById: jest.fn(),
      findClash: jest.fn().mockResolvedValue(null),
      insertUnlessTaken: jest.fn<Promise<boolean>, [ReservedTagKeyEntity]>().mockResolvedValue(true),
      update: jest.fn<Promise<void>, [EntityManager, ReservedTagKeyEntity]>(),
      delete: jest.fn(),
      overrideLocked: jest.fn(),
    };
    permissions = { requireOwner: jest.fn(), requireMember: jest.fn() };
    const organizations = {
      requireVisible: jest.fn().mockResolvedValue(org),
      lockForChildWrites: (m: EntityManager, id: string) => lockRow(m, OrganizationEntity, id),
    };
    sut = new ReservedTagKeysService(
      repo as never,
      permissions as never,
      organizations as unknown as OrganizationsService,
      ds as unknown as DataSource,
    );
  });

  const attrs = (key: string, disableOverrides = true) => ({ key, 'disable-overrides': disableOverrides });

  it('creates a key for an owner, leaving the clash check to the insert', async () => {
    const key = await sut.create(principal, 'acme', attrs('env'));
    expect(key).toMatchObject({ organizationId: org.id, key: 'env', disableOverrides: true });
    expect(key.id).toMatch(/^rtk-[0-9A-Za-z]{16}$/);
    expect(key.updatedAt).toEqual(key.createdAt);
    expect(repo.insertUnlessTaken).toHaveBeenCalledWith(key);
    expect(manager.query).not.toHaveBeenCalled();
  });

  it('answers 404 to a caller who is not an owner, writing nothing', async () => {
    permissions.requireOwner.mockRejectedValue(notFound());
    expect(await kindOf(sut.create(principal, 'acme', attrs('env')))).toEqual(['not-found', undefined]);
    expect(repo.insertUnlessTaken).not.toHaveBeenCalled();
  });

  it('refuses a key that clashes with another one of the organization', async () => {
    repo.insertUnlessTaken.mockResolvedValue(false);
    expect(await kindOf(sut.create(principal, 'acme', attrs('ENV')))).toEqual([
      'invalid',
      'Key has already been taken',
    ]);
  });

  it('answers 404 when the organization went away between its read and the insert', async () => {
    repo.insertUnlessTaken.mockRejectedValue(missingParentError());
    expect(await kindOf(sut.create(principal, 'acme', attrs('env')))).toEqual(['not-found', undefined]);
  });

  it('refuses an update to a key that clashes, after locking the organization row', async () => {
    repo.findById.mockResolvedValue(
      Object.assign(new ReservedTagKeyEntity(), {
        id: 'rtk-1',
        organizationId: org.id,
        key: 'env',
        updatedAt: new Date(),
      }),
    );
    repo.findClash.mockResolvedValue(new ReservedTagKeyEntity());
    expect(await kindOf(sut.update(principal, 'rtk-1', attrs('ENV')))).toEqual([
      'invalid',
      'Key has already been taken',
    ]);
    expect(manager.query).toHaveBeenCalledWith(expect.stringContaining('FOR UPDATE'), [org.id]);
    expect(repo.update).not.toHaveBeenCalled();
  });

  it('moves updated-at forward on update even within the same millisecond', async () => {
    const future = new Date(Date.now() + 60_000);
    const existing = Object.assign(new ReservedTagKeyEntity(), {
      id: 'rtk-1',
      organizationId: org.id,
      key: 'env',
      disableOverrides: false,
      createdAt: future,
      updatedAt: future,
    });
    repo.findById.mockResolvedValue(existing);
    const updated = await sut.update(principal, 'rtk-1', attrs('stage', true));
    expect(updated).toMatchObject({ key: 'stage', disableOverrides: true, createdAt: future });
    expect(updated.updatedAt.getTime()).toBe(future.getTime() + 1);
    expect(repo.update).toHaveBeenCalledWith(manager, updated);
  });

  it('answers 404 for an unknown id before any permission question', async () => {
    repo.findById.mockResolvedValue(null);
    expect(await kindOf(sut.update(principal, 'rtk-x', attrs('a')))).toEqual(['not-found', undefined]);
    expect(await kindOf(sut.delete(principal, 'rtk-x'))).toEqual(['not-found', undefined]);
    expect(permissions.requireOwner).not.toHaveBeenCalled();
  });

  it('asks for locked keys lower-cased and once each', async () => {
    repo.overrideLocked.mockResolvedValue(['env']);
    const locked = await sut.overrideLockedKeys(manager as never, org.id, ['Env', 'ENV', 'team']);
    expect(repo.overrideLocked).toHaveBeenCalledWith(manager, org.id, ['env', 'team']);
    expect(locked).toEqual(new Set(['env']));
  });
});
