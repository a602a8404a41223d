import { readdirSync, readFileSync } from 'fs';
import { resolve } from 'path';
import { missingPaths, namedPaths, ROOT } from './doc-text';

const BENCH = resolve(ROOT, 'scripts/bench');
const doc = readFileSync(resolve(ROOT, 'docs/benchmarks.md'), 'utf8');
const files = readdirSync(BENCH).filter((f) => f.endsWith('.ts') && !f.endsWith('.d.ts'));
const source = (f: string) => readFileSync(resolve(BENCH, f), 'utf8');

/**
 * The scenario names the bench defines (`name: 'show-policy-set'` in the files that build a
 * `Scenario`), and `scaling`, which selects the scaling check's `workspaces-…@N` scenarios.
 */
function scenarioNames(): string[] {
  const names = new Set(['scaling']);
  for (const f of files) {
    const text = source(f);
    if (!/\bScenario\b/.test(text)) continue;
    for (const m of text.matchAll(/\bname: '([a-z][a-z0-9-]*)'/g)) names.add(m[1]);
  }
  return [...names].sort();
}

/** The bench's files that no other one imports (`./x`) or starts (`'x.ts'`): each runs on its own. */
function entryPoints(): string[] {
  return files.filter((f) => {
    const base = f.replace(/\.ts$/, '');
    return !files.some(
      (other) => other !== f && new RegExp(`/${base}'|['/]${base}\\.ts'`).test(source(other)),
    );
  });
}

describe('docs/benchmarks.md', () => {
  it('gives every scenario the bench defines with the command that runs it', () => {
    const names = scenarioNames();
    expect(names.length).toBeGreaterThan(15);
    const undocumented = names.filter(
      (name) => !new RegExp(`BENCH_SCENARIOS=[a-z0-9,@-]*\\b${name}\\b[^\\n]*npm run bench`).test(doc),
    );
    expect(undocumented).toEqual([]);
  });

  it('says how to run every script under scripts/bench/ that runs on its own', () => {
    const scripts = JSON.parse(readFileSync(resolve(ROOT, 'package.json'), 'utf8')).scripts as Record<
      string,
      string
    >;
    const entries = entryPoints();
    expect(entries).toContain('run.ts');
    const unexplained = entries.filter((f) => {
      const viaNpm = Object.entries(scripts).filter(([, command]) => command.includes(`scripts/bench/${f}`));
      return !doc.includes(`scripts/bench/${f}`) && !viaNpm.some(([name]) => doc.includes(`npm run ${name}`));
    });
    expect(unexplained).toEqual([]);
  });

  it('names only files that exist', () => {
    expect(missingPaths(namedPaths(doc))).toEqual([]);
  });
});
