import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT } from '../helpers/server-process';

/**
 * What a newcomer meets by following the README and the guides literally, checked against the
 * docs' own text and the code's defaults (the requests themselves are exercised by the suites of
 * each area).
 */
const read = (path: string) => readFileSync(join(ROOT, path), 'utf8');
const README = read('README.md');
const OPERATIONS = read('docs/operations.md');
const TESTING = read('docs/testing.md');

/** The shell blocks of a Markdown text, in order. */
function shellBlocks(markdown: string): string[] {
  return [...markdown.matchAll(/```sh\n([\s\S]*?)```/g)].map((m) => m[1]);
}

/**
 * The section of a Markdown text under a heading, up to the next heading of that level or above
 * (a `#` line inside a code block is a shell comment, not a heading).
 */
function section(markdown: string, heading: string): string {
  const lines = markdown.split('\n');
  const start = lines.indexOf(heading);
  expect(start).toBeGreaterThanOrEqual(0);
  const level = /^#+/.exec(heading)![0].length;
  let fenced = false;
  let end = lines.length;
  for (let i = start + 1; i < lines.length; i++) {
    if (lines[i].startsWith('```')) fenced = !fenced;
    const mark = /^(#+) /.exec(lines[i]);
    if (!fenced && mark && mark[1].length <= level) {
      end = i;
      break;
    }
  }
  return lines.slice(start + 1, end).join('\n');
}

/** The numbered steps (`# 5. …`) of a shell walk-through, by number. */
function steps(block: string): Map<number, string> {
  const out = new Map<number, string>();
  for (const part of block.split(/^(?=# \d+\. )/m)) {
    const n = /^# (\d+)\. /.exec(part)?.[1];
    if (n) out.set(Number(n), part);
  }
  return out;
}

const organizationsCreated = (text: string) =>
  [...text.matchAll(/"type":"organizations","attributes":\{"name":"([^"]+)"/g)].map((m) => m[1]);

describe('the walk-throughs, followed literally', () => {
  const firstStart = shellBlocks(section(OPERATIONS, '## First start, step by step')).join('\n');
  const readmeFirstAdmin = section(README, '## First administrator');

  it('create each organization once, the README leading into the operations guide where it stops', () => {
    const link = /docs\/operations\.md#first-start-step-by-step\)[^.]*?at step (\d+)/.exec(readmeFirstAdmin);
    // Without a word on where to go on, a reader starts the guide from its first step.
    const from = link ? Number(link[1]) : 1;
    const followed = [
      ...shellBlocks(readmeFirstAdmin),
      ...[...steps(firstStart)].filter(([n]) => n >= from).map(([, text]) => text),
    ].join('\n');
    const names = organizationsCreated(followed);
    expect(names.length).toBeGreaterThan(0);
    expect(new Set(names).size).toBe(names.length);
    // What the README did is what the guide's skipped steps do: the reader is where step `from` expects.
    const skipped = [...steps(firstStart)]
      .filter(([n]) => n < from)
      .map(([, text]) => text)
      .join('\n');
    expect(organizationsCreated(skipped)).toEqual(
      organizationsCreated(shellBlocks(readmeFirstAdmin).join('\n')),
    );
  });

  it('search the users for someone the walk-throughs created', () => {
    const created = [...`${README}\n${firstStart}`.matchAll(/"username":"([^"]+)","email":"([^"]+)"/g)].map(
      (m) => `${m[1]} ${m[2]}`,
    );
    const searches = [...README.matchAll(/admin\/users\?q=([\w.@-]+)/g)].map((m) => m[1]);
    expect(searches.length).toBeGreaterThan(0);
    for (const q of searches) expect(created.filter((who) => who.includes(q))).not.toEqual([]);
  });

  it('name the test database default the suites use', () => {
    const helper = read('test/helpers/test-app.ts');
    const used = /process\.env\.TEST_DATABASE_URL \?\? '([^']+)'/.exec(helper)![1];
    for (const [name, text] of [
      ['README.md', README],
      ['docs/testing.md', TESTING],
      ['docs/operations.md', OPERATIONS],
    ]) {
      const named = [...text.matchAll(/TEST_DATABASE_URL`?,?\s+\(?default\s+`([^`]+)`/g)].map((m) => m[1]);
      expect([name, named.length > 0]).toEqual([name, true]);
      for (const url of named) expect([name, url]).toEqual([name, used]);
    }
  });
});
