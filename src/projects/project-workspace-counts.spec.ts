import { ChangeEpoch } from '../common/cache/change-epoch';
import { MemoryEpochStore } from '../common/cache/memory-epoch-store.testing';
import { AppConfig } from '../config/app-config';
import { ProjectWorkspaceCounts } from './project-workspace-counts';

describe('ProjectWorkspaceCounts', () => {
  const setup = (ttl = 5000) => {
    const stored = new Map([
      ['prj-a', 3],
      ['prj-b', 0],
    ]);
    const workspaceCounts = jest.fn(
      async (ids: string[]) => new Map(ids.map((id) => [id, stored.get(id) ?? 0])),
    );
    const epoch = new ChangeEpoch(new MemoryEpochStore());
    const counts = new ProjectWorkspaceCounts({ cacheTtlMs: ttl } as AppConfig, epoch);
    counts.register(workspaceCounts);
    /** What the statement tracking tells the epoch when this process writes the workspaces table. */
    const workspacesWritten = () => epoch.wrote(['workspaces']);
    return { stored, workspaceCounts, counts, workspacesWritten };
  };

  it('asks the database only for projects it does not remember', async () => {
    const { workspaceCounts, counts } = setup();
    expect(await counts.of(['prj-a'])).toEqual(new Map([['prj-a', 3]]));
    expect(await counts.of(['prj-a', 'prj-b', 'prj-a'])).toEqual(
      new Map([
        ['prj-a', 3],
        ['prj-b', 0],
      ]),
    );
    expect(workspaceCounts.mock.calls).toEqual([[['prj-a']], [['prj-b']]]);
  });

  it('reads again once this process wrote the workspaces, told by nobody but the epoch', async () => {
    const { stored, counts, workspacesWritten } = setup();
    await counts.of(['prj-a']);
    stored.set('prj-a', 4);
    expect((await counts.of(['prj-a'])).get('prj-a')).toBe(3);
    workspacesWritten();
    expect((await counts.of(['prj-a'])).get('prj-a')).toBe(4);
  });

  it('does not remember a count loaded before a change that landed while it was read', async () => {
    const { stored, workspaceCounts, counts, workspacesWritten } = setup();
    let release!: () => void;
    workspaceCounts.mockImplementationOnce(async (ids: string[]) => {
      const before = new Map(ids.map((id) => [id, stored.get(id) ?? 0]));
      await new Promise<void>((r) => (release = r));
      return before;
    });
    const stale = counts.of(['prj-a']);
    await Promise.resolve();
    stored.set('prj-a', 5);
    workspacesWritten();
    release();
    expect((await stale).get('prj-a')).toBe(3);
    expect((await counts.of(['prj-a'])).get('prj-a')).toBe(5);
  });

  it('remembers nothing with a TTL of 0', async () => {
    const { workspaceCounts, counts } = setup(0);
    await counts.of(['prj-a']);
    await counts.of(['prj-a']);
    expect(workspaceCounts).toHaveBeenCalledTimes(2);
  });
});
