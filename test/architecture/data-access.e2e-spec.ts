import { existsSync } from 'fs';
import { resolve } from 'path';
import { mixes, repositoryStyles, stylesOf, styleTable } from '../../scripts/architecture/data-access';
import { readSources } from '../../scripts/architecture/source-graph';

const ROOT = resolve(__dirname, '../..');

/**
 * The run control plane (runs, configuration versions, jobs, agents and their pools, policy
 * checks) is left to its own rework: its repositories are its hot paths and move as one area.
 */
const OUTSIDE = ['src/runs/', 'src/agent-pools/', 'src/policy-checks/'];

/**
 * Repository files that still mix TypeORM and plain SQL, each with why it is not yet split. A
 * file leaves this list once it keeps to one family (the test below fails while it is listed).
 */
const STILL_MIXED: Record<string, string> = {
  'src/notifications/notification-deliveries.repository.ts':
    'deliveries are written with RowWriter, claimed and listed with builders',
  'src/policies/policies.repository.ts': 'includes read by RowReader; the rest through the repository',
  'src/policy-sets/policy-set-versions.repository.ts': 'the newest versions of a page by RowReader',
  'src/policy-sets/policy-sets.repository.ts': 'the relations of a page by RowReader, the lists by builders',
  'src/projects/projects.repository.ts': 'includes read by RowReader; the rest through the repository',
  'src/reserved-tag-keys/reserved-tag-keys.repository.ts':
    'one key read and written by RowReader/RowWriter; the list and the clash checks by builders',
  'src/run-triggers/run-triggers.repository.ts': 'the inbound and outbound reads are plain SQL',
  'src/state-versions/state-versions.repository.ts': 'the current version by RowReader',
  'src/workspaces/workspaces.repository.ts':
    'by id and the list pages by RowReader; writes through the repository',
};

describe('data access of repository files', () => {
  const rows = repositoryStyles(readSources(resolve(ROOT, 'src')));
  const outside = (path: string) => OUTSIDE.some((prefix) => path.startsWith(prefix));

  it('tells the styles apart', () => {
    expect(stylesOf('constructor(@InjectRepository(A) private readonly repo: Repository<A>) {}')).toEqual([
      'typeorm',
    ]);
    expect(stylesOf('return manager.getRepository(A).createQueryBuilder("a").getMany();')).toEqual([
      'typeorm',
    ]);
    expect(stylesOf('this.rows = new RowReader(ds, A); this.w = new RowWriter(ds, A);')).toEqual([
      'reader',
      'writer',
    ]);
    expect(stylesOf("return readRows(this.ds, 'SELECT 1');")).toEqual(['sql']);
    expect(stylesOf("await manager.query('DELETE FROM a WHERE id = ?', [id]);")).toEqual(['sql']);
    expect(stylesOf('return lockRow(manager, A, id); // not repo.find(\n/* Repository<A> */')).toEqual([]);
    expect(stylesOf("const s = 'repo.find(x) readRows(ds)';")).toEqual([]);
  });

  it('counts TypeORM beside any plain SQL as mixed, and plain SQL of several kinds as one family', () => {
    expect(mixes(['typeorm', 'reader'])).toBe(true);
    expect(mixes(['typeorm', 'sql'])).toBe(true);
    expect(mixes(['reader', 'writer', 'sql'])).toBe(false);
    expect(mixes(['typeorm'])).toBe(false);
  });

  it('finds the repository files', () => {
    expect(rows.length).toBeGreaterThan(20);
    expect(rows.find((r) => r.path === 'src/users/users.repository.ts')?.styles).toEqual(['typeorm']);
  });

  it('keeps each repository file to one family of data access', () => {
    const mixed = rows.filter((r) => !outside(r.path) && !(r.path in STILL_MIXED) && mixes(r.styles));
    if (mixed.length) {
      throw new Error(
        `These repository files use TypeORM and plain SQL both; keep plain SQL (RowReader, RowWriter) ` +
          `for the hot paths and TypeORM elsewhere, one family per file:\n${styleTable(mixed)}`,
      );
    }
  });

  it('lists as still mixed only files that exist and still mix', () => {
    const stale = Object.keys(STILL_MIXED).filter((path) => {
      const row = rows.find((r) => r.path === path);
      return !existsSync(resolve(ROOT, path)) || !row || !mixes(row.styles);
    });
    expect(stale).toEqual([]);
  });
});
