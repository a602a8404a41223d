import { Readable } from 'node:stream';
import { gzipSync } from 'node:zlib';
import { tarGz } from '../../test/helpers/tarball';
import { entryProblem, inspectArchive } from './archive-inspector';

const inspect = (bytes: Buffer, maxExpandedBytes = 1_000_000) =>
  inspectArchive(Readable.from([bytes]), { maxExpandedBytes });

describe('archive inspector', () => {
  it('accepts a policy archive with files, directories and links that stay inside', async () => {
    const archive = tarGz([
      { path: 'sentinel.hcl', body: 'policy "a" { enforcement_level = "advisory" }' },
      { path: 'policies/', type: 'Directory' },
      { path: 'policies/a.sentinel', body: 'main = rule { true }' },
      { path: 'policies/alias.sentinel', type: 'SymbolicLink', linkpath: 'a.sentinel' },
      { path: 'copy.sentinel', type: 'Link', linkpath: 'policies/a.sentinel' },
    ]);
    await expect(inspect(archive)).resolves.toEqual({ ok: true, files: 2 });
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
    ['hard', 'Link', '../x', 'link hard points outside the archive'],
    ['pipe', 'FIFO', undefined, 'entry pipe is a FIFO, which a policy archive may not contain'],
    [
      'dev',
      'CharacterDevice',
      undefined,
      'entry dev is a CharacterDevice, which a policy archive may not contain',
    ],
  ])('refuses the entry %s (%s -> %s)', async (path, type, linkpath, reason) => {
    expect(entryProblem(path, type, linkpath)).toBe(reason);
    const archive = tarGz([
      { path: 'ok.sentinel', body: 'x' },
      { path, type, linkpath },
    ]);
    await expect(inspect(archive)).resolves.toEqual({ ok: false, reason });
  });

  it('accepts a symbolic link that climbs only within the archive', () => {
    expect(entryProblem('a/b/link', 'SymbolicLink', '../c')).toBeNull();
  });

  it('refuses an archive without a regular file', async () => {
    await expect(inspect(tarGz([{ path: 'empty/', type: 'Directory' }]))).resolves.toEqual({
      ok: false,
      reason: 'the archive contains no regular file',
    });
  });

  it('refuses bytes that are not gzip, and gzip that is cut short', async () => {
    await expect(inspect(Buffer.from('plain text'))).resolves.toEqual({
      ok: false,
      reason: 'the upload is not a valid gzip stream (incorrect header check)',
    });
    const archive = tarGz([{ path: 'a', body: 'x'.repeat(4000) }]);
    await expect(inspect(archive.subarray(0, archive.length - 12))).resolves.toEqual({
      ok: false,
      reason: 'the upload is not a valid gzip stream (unexpected end of file)',
    });
  });

  it('refuses gzip whose content is not a tar archive', async () => {
    const result = await inspect(gzipSync(Buffer.from('just some text, not a tarball\n'.repeat(40))));
    expect(result).toEqual({
      ok: false,
      reason: expect.stringMatching(/^the archive is not a valid tar archive \(/),
    });
  });

  it('refuses an archive that expands past the limit', async () => {
    const archive = tarGz([{ path: 'big', body: Buffer.alloc(200_000) }]);
    expect(archive.length).toBeLessThan(2_000);
    await expect(inspect(archive, 100_000)).resolves.toEqual({
      ok: false,
      reason: 'the archive expands to more than 100000 bytes',
    });
  });

  it('rejects when the source itself fails', async () => {
    const failing = new Readable({
      read() {
        this.destroy(new Error('disk gone'));
      },
    });
    await expect(inspectArchive(failing, { maxExpandedBytes: 1000 })).rejects.toThrow('disk gone');
  });
});
