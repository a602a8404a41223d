import { paxRecord, tarBytes, TarEntry, tarRecord } from '../../test/helpers/tarball';
import { TarScanner } from './tar-scanner';

/** Scans a whole tar stream in one go: why it is refused, or null; and the entries it listed. */
function scan(tar: Buffer, maxEntries = 1000): { problem: string | null; paths: string[] } {
  const scanner = new TarScanner(maxEntries);
  const problem = scanner.write(tar) ?? scanner.end();
  return { problem, paths: scanner.entries.map((e) => e.path) };
}

const withFile = (entries: TarEntry[]) => tarBytes([{ path: 'main.tf', body: 'x' }, ...entries]);
const problemOf = (entries: TarEntry[]) => scan(withFile(entries)).problem;

/** Longer than the header's 100-byte fields, so only an extended record can carry it. */
const deep = (count: number) => 'deep/'.repeat(count);
const ABSOLUTE = `/etc/${deep(24)}cron.d`;
const CLIMBING = `${'../'.repeat(40)}etc/cron.d`;

describe('tar scanner: names and link targets from extended records', () => {
  describe.each([
    ['a pax record', (linkpath: string) => ({ linkpath: 'harmless', pax: { linkpath } })],
    ['a GNU long link', (linkpath: string) => ({ linkpath: 'harmless', gnuLinkpath: linkpath })],
  ])('a link target over 100 bytes in %s', (_form, long: (target: string) => Partial<TarEntry>) => {
    it('refuses a symbolic link to an absolute path', () => {
      expect(problemOf([{ path: 'l', type: 'SymbolicLink', ...long(ABSOLUTE) }])).toBe(
        'link l points outside the archive',
      );
    });

    it('refuses a symbolic link that climbs out', () => {
      expect(problemOf([{ path: 'l', type: 'SymbolicLink', ...long(CLIMBING) }])).toBe(
        'link l points outside the archive',
      );
    });

    it('refuses a hard link that climbs out', () => {
      expect(problemOf([{ path: 'h', type: 'Link', ...long(CLIMBING) }])).toBe(
        'link h points outside the archive',
      );
    });

    it('refuses a hard link to an absolute path', () => {
      expect(problemOf([{ path: 'h', type: 'Link', ...long(ABSOLUTE) }])).toBe(
        'link h points outside the archive',
      );
    });

    it('follows a long target that stays inside, as extractors do', () => {
      const inside = `${deep(30)}main.tf`;
      const { problem, paths } = scan(
        withFile([
          { path: `${deep(30)}main.tf`, body: 'y', pax: { path: `${deep(30)}main.tf` } },
          { path: 'l', type: 'SymbolicLink', ...long(inside) },
          { path: 'h', type: 'Link', ...long(inside) },
          // Through the link the long target made: still inside.
          { path: 'l2', type: 'SymbolicLink', linkpath: 'l' },
        ]),
      );
      expect(problem).toBeNull();
      expect(paths).toEqual(['main.tf', `${deep(30)}main.tf`, 'l', 'h', 'l2']);
    });

    it('judges later links through the long target, not the header field', () => {
      // The field says `d/harmless`; the record makes `d/up` a link to the archive root, so `esc`
      // is created at the root and its `..` climbs out.
      expect(
        problemOf([
          { path: 'd/up', type: 'SymbolicLink', ...long(`${'./'.repeat(60)}..`) },
          { path: 'd/up/esc', type: 'SymbolicLink', linkpath: '..' },
        ]),
      ).toBe('link d/up/esc points outside the archive');
    });
  });

  describe.each([
    ['a pax record', (path: string) => ({ path: 'harmless', pax: { path } })],
    ['a GNU long name', (path: string) => ({ path: 'harmless', gnuPath: path })],
  ])('an entry name over 100 bytes in %s', (_form, long: (path: string) => TarEntry) => {
    it('refuses an absolute name', () => {
      expect(problemOf([{ ...long(`/${deep(30)}evil`), body: 'x' }])).toBe(
        `entry /${deep(30)}evil has an absolute path`,
      );
    });

    it('refuses a name with ..', () => {
      const climbing = `${deep(30)}${'../'.repeat(31)}evil`;
      expect(problemOf([{ ...long(climbing), body: 'x' }])).toBe(
        `entry ${climbing.slice(0, 200)}… contains ".." in its path`,
      );
    });

    it('lists the long name', () => {
      expect(scan(withFile([{ ...long(`${deep(30)}a.tf`), body: 'x' }]))).toEqual({
        problem: null,
        paths: ['main.tf', `${deep(30)}a.tf`],
      });
    });
  });

  it('reads a pax path alone, without the ustar prefix of the header after it', () => {
    // The header's name is split into prefix and name; extractors use the pax path, absolute.
    const prefixed = `${'p'.repeat(80)}/${'q'.repeat(60)}/f`;
    expect(problemOf([{ path: prefixed, body: 'x', pax: { path: '/etc/evil' } }])).toBe(
      'entry /etc/evil has an absolute path',
    );
  });

  it('reads a ustar prefix when no record replaces the name', () => {
    const prefixed = `${'p'.repeat(80)}/${'q'.repeat(60)}/f`;
    expect(scan(withFile([{ path: prefixed, body: 'x' }])).paths).toEqual(['main.tf', prefixed]);
  });

  it.each<[string, TarEntry[], string]>([
    [
      'a pax path and a GNU long name that differ',
      [{ path: 'x', body: 'x', pax: { path: 'a.tf' }, gnuPath: 'b.tf' }],
      'entry 3 has extended headers that name it differently, which tar readers disagree on',
    ],
    [
      'a pax link target and a GNU long link that differ',
      [{ path: 'l', type: 'SymbolicLink', pax: { linkpath: 'a' }, gnuLinkpath: 'b' }],
      'entry 3 has extended headers that give it different link targets, which tar readers disagree on',
    ],
    [
      'a pax size before a GNU long name',
      [{ path: 'x', body: 'x', pax: { size: '1' }, gnuPath: 'a.tf' }],
      'entry 3 has a pax size before another extended header, which tar readers disagree on',
    ],
    [
      'an empty pax path',
      [{ path: 'x', body: 'x', pax: { path: '' } }],
      'entry 2 has an empty or NUL-cut pax path, which tar readers disagree on',
    ],
    [
      'a pax size that is not a number',
      [{ path: 'x', body: 'x', pax: { size: '1e3' } }],
      'entry 2 has a pax size that is not a whole number, which tar readers disagree on',
    ],
    [
      'a sparse file record',
      [{ path: 'x', body: 'x', pax: { 'GNU.sparse.name': '/etc/evil' } }],
      'entry 2 has a pax header for a sparse file, which an uploaded archive may not contain',
    ],
  ])('refuses %s', (_case, entries, reason) => {
    expect(problemOf(entries)).toBe(reason);
  });

  it('refuses a pax record whose length does not match, which line readers and length readers split differently', () => {
    // A length reader takes one path with a newline in it (`../../x\n…`); tar's own parser took none.
    const value = '../../x\n6 a=b';
    const record = `${Buffer.byteLength(` path=${value}\n`) + 3} path=${value}\n`;
    const tar = Buffer.concat([
      tarRecord('main.tf', 'File', 'x'),
      tarRecord('PaxHeader/x', 'ExtendedHeader', record),
      tarRecord('x', 'File', 'x'),
      Buffer.alloc(1024),
    ]);
    expect(scan(tar).problem).toBe('entry 2 has a malformed pax extended header');
  });

  it('reads a value with a newline by its length, as extractors do', () => {
    const tar = Buffer.concat([
      tarRecord('main.tf', 'File', 'x'),
      tarRecord('PaxHeader/x', 'ExtendedHeader', paxRecord('path', '../../x\nfoo')),
      tarRecord('x', 'File', 'x'),
      Buffer.alloc(1024),
    ]);
    expect(scan(tar).problem).toBe('entry ../../x\nfoo contains ".." in its path');
  });

  it('refuses a global header that names entries', () => {
    const tar = Buffer.concat([
      tarRecord('main.tf', 'File', 'x'),
      tarRecord('PaxHeader/g', 'GlobalExtendedHeader', paxRecord('path', '/etc/evil')),
      tarRecord('x', 'File', 'x'),
      Buffer.alloc(1024),
    ]);
    expect(scan(tar).problem).toBe(
      'entry 2 has a global pax header with a path, which tar readers disagree on',
    );
  });

  it("refuses GNU's old long-name type, which readers that do not know it extract as a file", () => {
    const tar = Buffer.concat([
      tarRecord('main.tf', 'File', 'x'),
      tarRecord('../evil', 'OldGnuLongPath', 'x'),
    ]);
    expect(scan(tar).problem).toBe('entry ../evil contains ".." in its path');
  });

  it('refuses a regular file named like a directory that has a body', () => {
    expect(problemOf([{ path: 'd/', body: 'hidden headers' }])).toBe(
      'entry d/ is a file whose name ends in "/", which tar readers disagree on',
    );
  });

  it('refuses a name prefix in a header that is not ustar', () => {
    const block = tarRecord(`${'p'.repeat(80)}/${'q'.repeat(60)}/f`, 'File', 'x');
    block.write('ustar  \0', 257, 'latin1');
    // The checksum covers the magic: recompute it as a writer would.
    block.fill(0x20, 148, 156);
    let sum = 0;
    for (let i = 0; i < 512; i++) sum += block[i];
    block.write(`${sum.toString(8).padStart(6, '0')}\0 `, 148, 'latin1');
    expect(scan(Buffer.concat([block, Buffer.alloc(1024)])).problem).toBe(
      'entry 1 has a name prefix outside a ustar header, which tar readers disagree on',
    );
  });
});
