import { Readable } from 'node:stream';
import { gzipSync } from 'node:zlib';
import { Pax } from 'tar';
import { tarBytes, TarEntry, tarGz } from '../../test/helpers/tarball';
import { policyArchiveProblem } from '../policy-sets/policy-set-rules';
import { ArchiveInspectionOptions, ArchiveInspector } from './archive-inspector';

const CAPS = { owner: 'org-a', maxExpandedBytes: 1_000_000, maxEntries: 100, maxMillis: 30_000 };

const inspector = new ArchiveInspector({ workers: 1, perOwner: 100, waiting: 100 });
afterAll(() => inspector.onModuleDestroy());

/** Inspects what `source` streams, opened when the inspection's turn comes. */
const inspectArchive = (source: Readable, options: ArchiveInspectionOptions) =>
  inspector.inspect(() => Promise.resolve(source), options);

const inspect = (bytes: Buffer, options: Partial<ArchiveInspectionOptions> = {}) =>
  inspectArchive(Readable.from([bytes]), { ...CAPS, ...options });

const refusal = (reason: string) => ({ ok: false, reason });

/** An archive with one good file first, then `entries`. */
const withFile = (entries: TarEntry[]) => tarGz([{ path: 'ok.sentinel', body: 'x' }, ...entries]);

describe('archive inspector', () => {
  it('accepts files, directories and links that stay inside, and lists them', async () => {
    const archive = tarGz([
      { path: 'sentinel.hcl', body: 'policy "a" { enforcement_level = "advisory" }' },
      { path: './policies/', type: 'Directory' },
      { path: 'policies/a.sentinel', body: 'main = rule { true }' },
      { path: 'policies/alias.sentinel', type: 'SymbolicLink', linkpath: 'a.sentinel' },
      { path: 'copy.sentinel', type: 'Link', linkpath: 'policies/a.sentinel' },
      { path: 'policies/up', type: 'SymbolicLink', linkpath: '../policies' },
    ]);
    await expect(inspect(archive)).resolves.toEqual({
      ok: true,
      entries: [
        { path: 'sentinel.hcl', type: 'file', size: 45 },
        { path: 'policies', type: 'directory', size: 0 },
        { path: 'policies/a.sentinel', type: 'file', size: 20 },
        { path: 'policies/alias.sentinel', type: 'symlink', size: 0 },
        { path: 'copy.sentinel', type: 'hardlink', size: 0 },
        { path: 'policies/up', type: 'symlink', size: 0 },
      ],
    });
  });

  it.each([
    ['../evil', 'File', undefined, 'entry ../evil contains ".." in its path'],
    ['a/../../evil', 'File', undefined, 'entry a/../../evil contains ".." in its path'],
    ['a\\..\\..\\evil', 'File', undefined, 'entry a\\..\\..\\evil contains ".." in its path'],
    ['/etc/passwd', 'File', undefined, 'entry /etc/passwd has an absolute path'],
    ['C:/Windows/evil', 'File', undefined, 'entry C:/Windows/evil has an absolute path'],
    ['link', 'SymbolicLink', '../outside', 'link link points outside the archive'],
    ['d/link', 'SymbolicLink', '../../outside', 'link d/link points outside the archive'],
    ['link', 'SymbolicLink', '/etc/passwd', 'link link points outside the archive'],
    ['link', 'SymbolicLink', 'a\\..\\..', 'link link points outside the archive'],
    ['hard', 'Link', '../x', 'link hard points outside the archive'],
    ['pipe', 'FIFO', undefined, 'entry pipe is a FIFO, which an uploaded archive may not contain'],
    [
      'dev',
      'CharacterDevice',
      undefined,
      'entry dev is a CharacterDevice, which an uploaded archive may not contain',
    ],
  ])('refuses the entry %s (%s -> %s)', async (path, type, linkpath, reason) => {
    await expect(inspect(withFile([{ path, type, linkpath }]))).resolves.toEqual(refusal(reason));
  });

  describe('resolves links the way an extracting tar would', () => {
    it.each<[string, TarEntry[], string]>([
      [
        'a link whose parent is a link to .',
        [
          { path: 'a', type: 'SymbolicLink', linkpath: '.' },
          { path: 'a/b', type: 'SymbolicLink', linkpath: '..' },
        ],
        'link a/b points outside the archive',
      ],
      [
        'a link whose target climbs out of an earlier link',
        [
          { path: 'd/l', type: 'SymbolicLink', linkpath: '..' },
          { path: 'e', type: 'SymbolicLink', linkpath: 'd/l/..' },
        ],
        'link e points outside the archive',
      ],
      [
        'a chain of links each of which looks harmless alone',
        [
          { path: 'x/one', type: 'SymbolicLink', linkpath: 'two' },
          { path: 'x/two', type: 'SymbolicLink', linkpath: 'three' },
          { path: 'x/three', type: 'SymbolicLink', linkpath: '..' },
          { path: 'y', type: 'SymbolicLink', linkpath: 'x/one/..' },
        ],
        'link y points outside the archive',
      ],
      [
        'an earlier link a later link sends outside',
        [
          { path: 'x/y/l', type: 'SymbolicLink', linkpath: 'b/../../z' },
          { path: 'x/y/b', type: 'SymbolicLink', linkpath: '../..' },
        ],
        'link x/y/l points outside the archive',
      ],
      [
        'a file written through links that lead outside',
        [
          { path: 'x/y/l', type: 'SymbolicLink', linkpath: 'b/../../z' },
          { path: 'x/y/b', type: 'SymbolicLink', linkpath: '../..' },
          { path: 'x/y/l/evil', body: 'x' },
        ],
        'entry x/y/l/evil leads outside the archive through a link',
      ],
      [
        'a hard link that copies a relative link to a shallower place',
        [
          { path: 'd/s', type: 'SymbolicLink', linkpath: '../f' },
          { path: 'h', type: 'Link', linkpath: 'd/s' },
        ],
        'link h points outside the archive',
      ],
      [
        'links that loop',
        [
          { path: 'a', type: 'SymbolicLink', linkpath: 'b' },
          { path: 'b', type: 'SymbolicLink', linkpath: 'a' },
        ],
        'link a resolves through too many links',
      ],
    ])('refuses %s', async (_case, entries, reason) => {
      await expect(inspect(withFile(entries))).resolves.toEqual(refusal(reason));
    });
  });

  it('reads pax long paths as tar does', async () => {
    const long = `${'dir/'.repeat(40)}file.sentinel`;
    const pax = new Pax({ path: long }).encode();
    const archive = gzipSync(Buffer.concat([pax, tarBytes([{ path: 'short-name', body: 'x' }])]));
    await expect(inspect(archive)).resolves.toEqual({
      ok: true,
      entries: [{ path: long, type: 'file', size: 1 }],
    });
  });

  describe('caps', () => {
    it('refuses zeros after the end-of-archive marker past the expanded-size cap', async () => {
      const bomb = gzipSync(Buffer.concat([tarBytes([{ path: 'a', body: 'x' }]), Buffer.alloc(4_000_000)]));
      expect(bomb.length).toBeLessThan(10_000);
      await expect(inspect(bomb, { maxExpandedBytes: 1_000_000 })).resolves.toEqual(
        refusal('the archive expands to more than 1000000 bytes (the expanded-size cap)'),
      );
    });

    it('refuses a zero-filled body past the expanded-size cap', async () => {
      const bomb = tarGz([{ path: 'big', body: Buffer.alloc(200_000) }]);
      await expect(inspect(bomb, { maxExpandedBytes: 100_000 })).resolves.toEqual(
        refusal('the archive expands to more than 100000 bytes (the expanded-size cap)'),
      );
    });

    it('takes zero padding after the marker under the cap, as tar writers pad records', async () => {
      const padded = gzipSync(Buffer.concat([tarBytes([{ path: 'a', body: 'x' }]), Buffer.alloc(8_192)]));
      await expect(inspect(padded)).resolves.toMatchObject({ ok: true });
    });

    it('refuses more entries than the entry-count cap', async () => {
      const many = tarGz(Array.from({ length: 4 }, (_, i) => ({ path: `f${i}`, body: 'x' })));
      await expect(inspect(many, { maxEntries: 3 })).resolves.toEqual(
        refusal('the archive has more than 3 entries (the entry-count cap)'),
      );
      await expect(inspect(many, { maxEntries: 4 })).resolves.toMatchObject({ ok: true });
    });

    it('refuses an inspection that passes the time cap, and inspects the next archive', async () => {
      const endless = new Readable({ read: () => undefined });
      endless.push(tarGz([{ path: 'a', body: 'x' }]).subarray(0, 10));
      await expect(inspectArchive(endless, { ...CAPS, maxMillis: 200 })).resolves.toEqual(
        refusal('inspecting the archive took longer than 200 ms (the inspection time cap)'),
      );
      expect(endless.destroyed).toBe(true);
      await expect(inspect(withFile([]))).resolves.toMatchObject({ ok: true });
    });

    it('drops a blob that opens only after the time cap, even if it then fails to open', async () => {
      let opened!: (source: Readable) => void;
      const answer = await inspector.inspect(() => new Promise((resolve) => (opened = resolve)), {
        ...CAPS,
        maxMillis: 1,
      });
      expect(answer).toEqual(
        refusal('inspecting the archive took longer than 1 ms (the inspection time cap)'),
      );
      // The caller deleted the refused blob meanwhile: the stream fails as it is dropped.
      const gone = new Readable({
        read: () => undefined,
        destroy: (_err, done) => done(Object.assign(new Error('ENOENT: no such file'), { code: 'ENOENT' })),
      });
      const closed = new Promise((resolve) => gone.once('close', resolve));
      opened(gone);
      // Its error is emitted before it closes: with no one listening, it would end the process.
      await closed;
      expect(gone.destroyed).toBe(true);
      await expect(inspect(withFile([]))).resolves.toMatchObject({ ok: true });
    });

    it('drops archives past the time cap on warm workers without taking the process down', async () => {
      // A worker terminated while it builds its gunzip aborts the whole process on Node.js 20, so
      // the inspector asks it to drop the archive instead: this loop crashed the old design.
      const bomb = gzipSync(Buffer.alloc(64 << 20));
      for (let round = 0; round < 150; round += 1) {
        await expect(inspect(withFile([]))).resolves.toMatchObject({ ok: true });
        await expect(
          inspect(bomb, { maxExpandedBytes: 1e9, maxMillis: 1 + (round % 3) }),
        ).resolves.toMatchObject({
          ok: false,
          reason: expect.stringContaining('the inspection time cap'),
        });
      }
    });

    it('answers with the source error when the source fails mid-archive, and inspects the next', async () => {
      const failing = new Readable({ read: () => undefined });
      failing.push(tarGz([{ path: 'a', body: 'x'.repeat(5000) }]).subarray(0, 20));
      setTimeout(() => failing.destroy(new Error('the store went away')), 50);
      await expect(inspectArchive(failing, CAPS)).rejects.toThrow('the store went away');
      await expect(inspect(withFile([]))).resolves.toMatchObject({ ok: true });
    });
  });

  describe('waiting for a worker', () => {
    const single = new ArchiveInspector({ workers: 1, perOwner: 2, waiting: 10 });
    afterAll(() => single.onModuleDestroy());

    /** A source that sends nothing until `release`, then a valid archive: it holds its worker. */
    function stalled() {
      const source = new Readable({ read: () => undefined });
      let opened!: () => void;
      return {
        opened: new Promise<void>((resolve) => (opened = resolve)),
        open: () => {
          opened();
          return Promise.resolve(source);
        },
        release: () => {
          source.push(withFile([]));
          source.push(null);
        },
      };
    }

    it('counts the time spent waiting against the time cap', async () => {
      const holder = stalled();
      const holding = single.inspect(holder.open, { ...CAPS, owner: 'org-a' });
      await holder.opened;
      let opened = false;
      const waiting = single.inspect(
        () => {
          opened = true;
          return Promise.resolve(Readable.from([withFile([])]));
        },
        { ...CAPS, owner: 'org-b', maxMillis: 100 },
      );
      await expect(waiting).resolves.toEqual(
        refusal('inspecting the archive took longer than 100 ms (the inspection time cap)'),
      );
      // It never had a worker, so its blob was never opened.
      expect(opened).toBe(false);
      holder.release();
      await expect(holding).resolves.toMatchObject({ ok: true });
    });

    it("refuses an organization's inspection past its bound, and takes the next once one ends", async () => {
      const first = stalled();
      const second = stalled();
      const inspections = [
        single.inspect(first.open, { ...CAPS, owner: 'org-a' }),
        single.inspect(second.open, { ...CAPS, owner: 'org-a' }),
      ];
      await expect(single.inspect(first.open, { ...CAPS, owner: 'org-a' })).rejects.toMatchObject({
        kind: 'rate-limited',
        retryAfterSeconds: 5,
      });
      await first.opened;
      first.release();
      await second.opened;
      second.release();
      await expect(Promise.all(inspections)).resolves.toMatchObject([{ ok: true }, { ok: true }]);
      await expect(inspect(withFile([]), { owner: 'org-a' })).resolves.toMatchObject({ ok: true });
    });

    it("gives the worker to another organization's upload before a third of the first one's", async () => {
      const holder = stalled();
      const queued = stalled();
      const holding = single.inspect(holder.open, { ...CAPS, owner: 'org-a' });
      const later = single.inspect(queued.open, { ...CAPS, owner: 'org-a' });
      await holder.opened;
      const other = single.inspect(() => Promise.resolve(Readable.from([withFile([])])), {
        ...CAPS,
        owner: 'org-b',
      });
      holder.release();
      // org-b's archive is inspected while org-a's second one has not even been opened.
      await expect(Promise.race([other, queued.opened.then(() => 'org-a first')])).resolves.toMatchObject({
        ok: true,
      });
      await queued.opened;
      queued.release();
      await expect(Promise.all([holding, later])).resolves.toMatchObject([{ ok: true }, { ok: true }]);
    });
  });

  describe('data past the end', () => {
    it('refuses a second gzip member that carries another tar archive', async () => {
      const first = tarGz([{ path: 'a', body: 'x' }]);
      const second = tarGz([{ path: 'hidden', type: 'SymbolicLink', linkpath: '/etc' }]);
      await expect(inspect(Buffer.concat([first, second]))).resolves.toEqual(
        refusal('the archive has data after its end-of-archive marker'),
      );
    });

    it('refuses bytes after the gzip stream', async () => {
      const archive = Buffer.concat([tarGz([{ path: 'a', body: 'x' }]), Buffer.alloc(64)]);
      await expect(inspect(archive)).resolves.toEqual(
        refusal('the upload has data after the end of its gzip stream'),
      );
    });

    it('reads a tar archive split across gzip members as one stream', async () => {
      const tar = tarBytes([
        { path: 'a', body: 'x'.repeat(700) },
        { path: 'b', body: 'y' },
      ]);
      const split = Buffer.concat([gzipSync(tar.subarray(0, 700)), gzipSync(tar.subarray(700))]);
      await expect(inspect(split)).resolves.toMatchObject({
        ok: true,
        entries: [{ path: 'a' }, { path: 'b' }],
      });
    });
  });

  it("applies the caller's rule to a safe archive: an empty tar.gz has no regular file", async () => {
    const empty = tarGz([]);
    await expect(inspect(empty)).resolves.toEqual({ ok: true, entries: [] });
    await expect(inspect(empty, { rule: policyArchiveProblem })).resolves.toEqual(
      refusal('the archive contains no regular file'),
    );
    await expect(
      inspect(tarGz([{ path: 'empty/', type: 'Directory' }]), { rule: policyArchiveProblem }),
    ).resolves.toEqual(refusal('the archive contains no regular file'));
  });

  it('refuses bytes that are not gzip, gzip cut short, and gzip that holds no tar', async () => {
    await expect(inspect(Buffer.from('plain text'))).resolves.toEqual(
      refusal('the upload is not a valid gzip stream (incorrect header check)'),
    );
    const archive = tarGz([{ path: 'a', body: 'x'.repeat(4000) }]);
    await expect(inspect(archive.subarray(0, archive.length - 12))).resolves.toEqual(
      refusal('the upload is not a valid gzip stream (unexpected end of file)'),
    );
    await expect(
      inspect(gzipSync(Buffer.from('just some text, not a tarball\n'.repeat(40)))),
    ).resolves.toEqual(refusal('the archive is not a valid tar archive (entry 1 has a bad header checksum)'));
    await expect(inspect(gzipSync(Buffer.alloc(0)))).resolves.toEqual(
      refusal('the archive is not a valid tar archive (it holds no tar header)'),
    );
    const cut = tarBytes([{ path: 'a', body: 'x'.repeat(2000) }]).subarray(0, 1024);
    await expect(inspect(gzipSync(cut))).resolves.toEqual(
      refusal('the archive is not a valid tar archive (it ends inside entry a)'),
    );
  });

  it('rejects when the source itself fails', async () => {
    const failing = new Readable({
      read() {
        this.destroy(new Error('disk gone'));
      },
    });
    await expect(inspectArchive(failing, CAPS)).rejects.toThrow('disk gone');
  });
});
