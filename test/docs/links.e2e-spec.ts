import { readdirSync, readFileSync } from 'fs';
import { resolve } from 'path';
import { ROOT } from './doc-text';

const DOCS = ['README.md', ...readdirSync(resolve(ROOT, 'docs')).map((f) => `docs/${f}`)].filter((f) =>
  f.endsWith('.md'),
);

/** GitHub's anchor of a heading: lower case, punctuation dropped, spaces as hyphens; repeats numbered. */
function anchors(markdown: string): Set<string> {
  const seen = new Map<string, number>();
  const out = new Set<string>();
  let fenced = false;
  for (const line of markdown.split('\n')) {
    if (line.startsWith('```')) fenced = !fenced;
    const heading = !fenced && /^#{1,6}\s+(.*)$/.exec(line);
    if (!heading) continue;
    const slug = heading[1]
      .trim()
      .toLowerCase()
      .replace(/[^\p{L}\p{N}\s_-]/gu, '')
      .replace(/\s/g, '-');
    const n = seen.get(slug) ?? 0;
    seen.set(slug, n + 1);
    out.add(n === 0 ? slug : `${slug}-${n}`);
  }
  return out;
}

describe('links between the documents', () => {
  it('lead to documents and headings that exist', () => {
    const broken: string[] = [];
    for (const file of DOCS) {
      const text = readFileSync(resolve(ROOT, file), 'utf8');
      for (const m of text.matchAll(/\]\(([^)\s]*?\.md)?(#[^)\s]+)?\)/g)) {
        const [target, anchor] = [m[1], m[2]];
        if (!target && !anchor) continue;
        if (target && /^[a-z]+:/.test(target)) continue;
        const path = target ? resolve(ROOT, file, '..', target) : resolve(ROOT, file);
        let headings: Set<string>;
        try {
          headings = anchors(readFileSync(path, 'utf8'));
        } catch {
          broken.push(`${file}: ${m[0]} (no such document)`);
          continue;
        }
        if (anchor && !headings.has(anchor.slice(1))) broken.push(`${file}: ${m[0]} (no such heading)`);
      }
    }
    expect(broken).toEqual([]);
  });
});
