import { resolve } from 'path';
import { mixes, repositoryStyles, stylesOf, styleTable } from '../../scripts/architecture/data-access';
import { readSources } from '../../scripts/architecture/source-graph';

const ROOT = resolve(__dirname, '../..');

describe('data access of repository files', () => {
  const rows = repositoryStyles(readSources(resolve(ROOT, 'src')));

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
    const mixed = rows.filter((r) => mixes(r.styles));
    if (mixed.length) {
      throw new Error(
        `These repository files use TypeORM and plain SQL both; keep plain SQL (RowReader, RowWriter) ` +
          `for the hot paths and TypeORM elsewhere, one family per file:\n${styleTable(mixed)}`,
      );
    }
  });
});
