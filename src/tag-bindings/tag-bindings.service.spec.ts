import { DataSource, EntityManager } from 'typeorm';
import { DomainError } from '../common/errors/domain-error';
import { ReservedTagKeysService } from '../reserved-tag-keys/reserved-tag-keys.service';
import { TagBindingEntity } from './entities/tag-binding.entity';
import { TagBindingsRepository, TagScope } from './tag-bindings.repository';
import { TagBindingsService } from './tag-bindings.service';

const binding = (
  id: string,
  key: string,
  value: string,
  owner: { projectId?: string; workspaceId?: string },
) =>
  Object.assign(new TagBindingEntity(), {
    id,
    projectId: owner.projectId ?? null,
    workspaceId: owner.workspaceId ?? null,
    key,
    value,
    createdAt: new Date(0),
    updatedAt: new Date(0),
  });

async function refusal(promise: Promise<unknown>): Promise<DomainError> {
  try {
    await promise;
  } catch (err) {
    if (err instanceof DomainError) return err;
    throw err;
  }
  throw new Error('expected a refusal');
}

describe('TagBindingsService', () => {
  let sut: TagBindingsService;
  let stored: TagBindingEntity[];
  let repo: jest.Mocked<Pick<TagBindingsRepository, 'all' | 'insert' | 'update' | 'delete'>>;
  let locked: Set<string>;
  let manager: { query: jest.Mock; connection: unknown };
  const ws = { id: 'ws-1', organizationId: 'org-1', projectId: 'prj-1' };
  let lock: jest.Mock;

  beforeEach(() => {
    stored = [
      binding('tb-p1', 'env', 'prod', { projectId: 'prj-1' }),
      binding('tb-p2', 'team', 'core', { projectId: 'prj-1' }),
      binding('tb-w1', 'app', 'web', { workspaceId: 'ws-1' }),
    ];
    locked = new Set(['env']);
    lock = jest.fn(async () => undefined);
    manager = { query: jest.fn().mockResolvedValue([]), connection: { options: { type: 'mysql' } } };
    repo = {
      all: jest.fn(async (scope: TagScope) =>
        stored.filter((b) =>
          'projectId' in scope ? b.projectId === scope.projectId : b.workspaceId === scope.workspaceId,
        ),
      ),
      insert: jest.fn(),
      update: jest.fn(),
      delete: jest.fn(),
    };
    const reserved = {
      overrideLockedKeys: jest.fn(async (_m: unknown, _o: string, keys: string[]) => {
        return new Set(keys.map((k) => k.toLowerCase()).filter((k) => locked.has(k)));
      }),
    };
    const ds = {
      options: { type: 'mysql' },
      transaction: jest.fn((work: (m: EntityManager) => Promise<unknown>) => work(manager as never)),
    };
    sut = new TagBindingsService(
      repo as never,
      reserved as unknown as ReservedTagKeysService,
      ds as unknown as DataSource,
    );
  });

  const noWrites = () => {
    expect(repo.insert).not.toHaveBeenCalled();
    expect(repo.update).not.toHaveBeenCalled();
    expect(repo.delete).not.toHaveBeenCalled();
  };

  describe('saveWorkspace', () => {
    it('only saves the workspace, without locks, when neither its bindings nor its project change', async () => {
      const save = jest.fn();
      await sut.saveWorkspace(manager as never, ws, { previousProjectId: 'prj-1' }, save, lock);
      expect(save).toHaveBeenCalledTimes(1);
      expect(lock).not.toHaveBeenCalled();
      expect(repo.all).not.toHaveBeenCalled();
    });

    it('refuses a locked override before saving anything', async () => {
      const save = jest.fn();
      const err = await refusal(
        sut.saveWorkspace(
          manager as never,
          ws,
          {
            items: [
              { key: 'app', value: 'web' },
              { key: 'env', value: 'dev' },
            ],
            previousProjectId: 'prj-1',
          },
          save,
          lock,
        ),
      );
      expect(err.kind).toBe('invalid');
      expect(err.items).toEqual([
        {
          detail: expect.stringMatching(/^Key env is reserved with overrides disabled/),
          pointer: '/data/relationships/tag-bindings/data/1/attributes/key',
        },
      ]);
      expect(save).not.toHaveBeenCalled();
      noWrites();
    });

    it("takes the caller's row locks before it reads", async () => {
      repo.all.mockImplementation(async () => {
        expect(lock).toHaveBeenCalledWith(manager);
        return [];
      });
      await sut.saveWorkspace(
        manager as never,
        ws,
        { items: [], previousProjectId: 'prj-1' },
        jest.fn(),
        lock,
      );
      expect(lock).toHaveBeenCalledTimes(1);
    });

    it('checks a move against the new project, pointing at the project relationship', async () => {
      stored.push(binding('tb-w2', 'env', 'dev', { workspaceId: 'ws-1' }));
      locked = new Set(['env']);
      const save = jest.fn();
      const err = await refusal(
        sut.saveWorkspace(manager as never, ws, { previousProjectId: 'prj-0' }, save, lock),
      );
      expect(err.items[0].pointer).toBe('/data/relationships/project');
      expect(save).not.toHaveBeenCalled();
    });

    it('replaces the bindings: keeps, re-cases, adds and removes by key', async () => {
      stored.push(binding('tb-w2', 'tier', 'gold', { workspaceId: 'ws-1' }));
      const save = jest.fn();
      await sut.saveWorkspace(
        manager as never,
        ws,
        {
          items: [
            { key: 'APP', value: 'web' },
            { key: 'region', value: 'eu' },
          ],
          previousProjectId: 'prj-1',
        },
        save,
        lock,
      );
      expect(save).toHaveBeenCalled();
      expect(repo.delete).toHaveBeenCalledWith(manager, ['tb-w2']);
      expect(repo.update).toHaveBeenCalledWith(manager, expect.objectContaining({ id: 'tb-w1', key: 'APP' }));
      expect(repo.insert).toHaveBeenCalledWith(manager, [
        expect.objectContaining({ key: 'region', value: 'eu', workspaceId: 'ws-1', projectId: null }),
      ]);
    });
  });

  describe('mergeIntoProject', () => {
    it('refuses to grow past ten bindings, writing nothing', async () => {
      const items = Array.from({ length: 9 }, (_, i) => ({ key: `k${i}`, value: 'v' }));
      const err = await refusal(sut.mergeIntoProject('prj-1', items, lock));
      expect(err.items).toEqual([{ detail: 'A project can have at most 10 tag bindings', pointer: '/data' }]);
      noWrites();
    });

    it('updates changed values only and answers every binding sorted by key', async () => {
      const all = await sut.mergeIntoProject(
        'prj-1',
        [
          { key: 'team', value: 'core' },
          { key: 'Env', value: 'stage' },
          { key: 'cost', value: '1' },
        ],
        lock,
      );
      expect(all.map((b) => [b.key, b.value])).toEqual([
        ['cost', '1'],
        ['Env', 'stage'],
        ['team', 'core'],
      ]);
      expect(repo.update).toHaveBeenCalledTimes(1);
      expect(repo.delete).toHaveBeenCalledWith(manager, []);
    });
  });

  describe('effectiveForWorkspace', () => {
    it('merges own and inherited bindings, the own one winning, and pages the result', async () => {
      stored.push(binding('tb-w2', 'TEAM', 'payments', { workspaceId: 'ws-1' }));
      const page = await sut.effectiveForWorkspace(ws, { number: 1, size: 2 });
      expect(page.totalCount).toBe(3);
      expect(page.items.map((e) => [e.binding.key, e.inheritedFrom])).toEqual([
        ['app', null],
        ['env', 'prj-1'],
      ]);
      const second = await sut.effectiveForWorkspace(ws, { number: 2, size: 2 });
      expect(second.items.map((e) => [e.binding.key, e.inheritedFrom])).toEqual([['TEAM', null]]);
    });
  });
});
