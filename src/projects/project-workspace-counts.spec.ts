import { standingEpoch } from '../common/cache/change-epoch';
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
    const counts = new ProjectWorkspaceCounts({ cacheTtlMs: ttl } as AppConfig, standingEpoch());
    counts.register(workspaceCounts);
    return { stored, workspaceCounts, counts };
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

  it('reads again after forget()', async () => {
    const { stored, counts } = setup();
    await counts.of(['prj-a']);
    stored.set('prj-a', 4);
    expect((await counts.of(['prj-a'])).get('prj-a')).toBe(3);
    counts.forget();
    expect((await counts.of(['prj-a'])).get('prj-a')).toBe(4);
  });

  it('does not remember a count loaded before a change that landed while it was read', async () => {
    const { stored, workspaceCounts, counts } = setup();
    let release!: () => void;
    workspaceCounts.mockImplementationOnce(async (ids: string[]) => {
      const before = new Map(ids.map((id) => [id, stored.get(id) ?? 0]));
      await new Promise<void>((r) => (release = r));
      return before;
    });
    const stale = counts.of(['prj-a']);
    await Promise.resolve();
    stored.set('prj-a', 5);
    counts.forget();
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
