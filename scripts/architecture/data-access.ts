/**
 * Which ways of reaching the database each repository file uses. There are two families:
 *
 * - TypeORM: repositories, entity managers' find/save/update/delete, query builders.
 * - Plain SQL: `RowReader` and `RowWriter` (common/sql), which write the statement text once and
 *   hydrate whole entities, and statement text run as it is (`.query()`, `readRows`,
 *   `runStatement`, `writeWith`, …). They are one family: the reader and writer are
 *   statement text with the entity's columns filled in, and what they cannot say (an aggregate,
 *   an upsert) is said in the same SQL beside them.
 *
 * The transaction helpers (`inTransaction`, `inOneStatement`, `lockRow`, `afterCommit`) belong
 * to neither: they take a manager and serve both.
 *
 * Plain SQL is kept for the hot paths (docs/benchmarks.md, "Measured decisions the code relies
 * on") and TypeORM serves the rest; a repository file keeps to one family, so a reader of a
 * file knows which rules its statements follow (what TypeORM fills in, what the driver converts).
 *
 *   npx ts-node --transpile-only scripts/architecture/data-access.ts   # the table of every file
 */
import { resolve } from 'path';
import { readSources, SourceText } from './source-graph';

export type Style = 'typeorm' | 'reader' | 'writer' | 'sql';
export const STYLES: readonly Style[] = ['typeorm', 'reader', 'writer', 'sql'];

/** What marks each style in a file's code (comments and string contents left out). */
const MARKS: Record<Style, RegExp[]> = {
  typeorm: [
    /@InjectRepository\(/,
    /\bRepository</,
    /\.getRepository\(/,
    /\.createQueryBuilder\(/,
    /\bSelectQueryBuilder\b/,
    /\.(find|findBy|findOne|findOneBy|findOneOrFail|findAndCount|save|count|countBy|exists|existsBy|increment|decrement|upsert|remove|softDelete|sum|maximum|minimum)\(/,
    /\bwithRowLock\(/,
    /\bpaginate(Counted)?\(/,
  ],
  reader: [/\bRowReader\b/],
  writer: [/\bRowWriter\b/],
  sql: [/\.query\(/, /\breadRows(With)?\(/, /\brunStatement\(/, /\bwriteWith\(/, /\bwriteOnPool\(/],
};

/** The source without comments and with string and template contents blanked (SQL text aside). */
export function codeOf(text: string): string {
  return text
    .replace(/\/\*[\s\S]*?\*\//g, '')
    .replace(/(^|[^:])\/\/.*$/gm, '$1')
    .replace(/'(?:[^'\\\n]|\\.)*'/g, "''")
    .replace(/"(?:[^"\\\n]|\\.)*"/g, '""');
}

/** The styles a repository file uses, in STYLES order. */
export function stylesOf(text: string): Style[] {
  const code = codeOf(text);
  return STYLES.filter((s) => MARKS[s].some((re) => re.test(code)));
}

/** A file mixes when it uses TypeORM and plain SQL (of any kind) both. */
export function mixes(styles: readonly Style[]): boolean {
  return styles.includes('typeorm') && styles.some((s) => s !== 'typeorm');
}

export interface RepositoryStyles {
  path: string;
  styles: Style[];
}

/** Every `*.repository.ts` of `sources` (read from src/) with its styles, by path from the root. */
export function repositoryStyles(sources: SourceText[]): RepositoryStyles[] {
  return sources
    .filter((s) => s.path.endsWith('.repository.ts'))
    .map((s) => ({ path: `src/${s.path}`, styles: stylesOf(s.text) }))
    .sort((a, b) => a.path.localeCompare(b.path));
}

/** A markdown table of the files, one column per style, and whether each mixes. */
export function styleTable(rows: RepositoryStyles[]): string {
  const head = `| file | ${STYLES.join(' | ')} | mixes |\n|---|${STYLES.map(() => '---').join('|')}|---|`;
  const lines = rows.map(
    (r) =>
      `| ${r.path} | ${STYLES.map((s) => (r.styles.includes(s) ? 'x' : '')).join(' | ')} | ${mixes(r.styles) ? 'yes' : ''} |`,
  );
  return [head, ...lines].join('\n');
}

if (require.main === module) {
  const rows = repositoryStyles(readSources(resolve(__dirname, '../../src')));
  console.log(styleTable(rows));
  console.log(`\n${rows.filter((r) => mixes(r.styles)).length} of ${rows.length} files mix the two families`);
}
