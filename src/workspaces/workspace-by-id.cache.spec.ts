import { ChangeEpoch } from '../common/cache/change-epoch';
import { MemoryEpochStore } from '../common/cache/memory-epoch-store.testing';
import { currentReadSet } from '../common/cache/read-set';
import { AppConfig } from '../config/app-config';
import { WorkspaceEntity } from './entities/workspace.entity';
import { WorkspaceByIdCache } from './workspace-by-id.cache';

describe(WorkspaceByIdCache.name, () => {
  const row = (name: string) =>
    Object.assign(new WorkspaceEntity(), { id: 'ws-1', organizationId: 'org-1', name, locked: false });

  async function setUp() {
    const store = new MemoryEpochStore();
    const epoch = new ChangeEpoch(store);
    await epoch.sync();
    const sut = new WorkspaceByIdCache({ cacheTtlMs: 60_000 } as AppConfig, epoch);
    let stored = row('first');
    const load = jest.fn(() => {
      currentReadSet()?.add(['workspaces']);
      return Promise.resolve(Object.assign(new WorkspaceEntity(), stored));
    });
    return { store, epoch, sut, load, save: (name: string) => (stored = row(name)) };
  }

  it('gives each caller a copy of its own, so a change made before a save stays with its caller', async () => {
    const { sut, load } = await setUp();
    const mine = await sut.workspace('ws-1', load);
    mine!.locked = true;
    mine!.name = 'renamed in memory';
    const theirs = await sut.workspace('ws-1', load);
    expect(theirs).toBeInstanceOf(WorkspaceEntity);
    expect(theirs).toMatchObject({ name: 'first', locked: false });
    expect(theirs).not.toBe(mine);
    expect(load).toHaveBeenCalledTimes(1);
  });

  it('keeps a workspace across changes to other tables and reads it again after a change to workspaces', async () => {
    const { store, epoch, sut, load, save } = await setUp();
    await sut.workspace('ws-1', load);
    epoch.wrote(['runs', 'run_phases', 'run_jobs']);
    store.changedElsewhere('policy_sets');
    await epoch.sync();
    expect((await sut.workspace('ws-1', load))?.name).toBe('first');
    expect(load).toHaveBeenCalledTimes(1);
    save('second');
    epoch.wrote(['workspaces']);
    expect((await sut.workspace('ws-1', load))?.name).toBe('second');
    save('third');
    store.changedElsewhere('workspaces');
    await epoch.sync();
    expect((await sut.workspace('ws-1', load))?.name).toBe('third');
  });

  it('remembers that a workspace does not exist, until workspaces change', async () => {
    const { epoch, sut } = await setUp();
    const missing = jest.fn(() => {
      currentReadSet()?.add(['workspaces']);
      return Promise.resolve(null);
    });
    expect(await sut.workspace('ws-none', missing)).toBeNull();
    expect(await sut.workspace('ws-none', missing)).toBeNull();
    expect(missing).toHaveBeenCalledTimes(1);
    epoch.wrote(['workspaces']);
    await sut.workspace('ws-none', missing);
    expect(missing).toHaveBeenCalledTimes(2);
  });
});
