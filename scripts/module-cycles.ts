/**
 * Checks the module graph of src/ (a module is a top-level folder) and keeps the parts of
 * docs/architecture.md that describe it in step. Exits 1 on an import cycle between modules (the
 * platform folders counting as one), an import across the layers the wrong way, a `forwardRef`, a
 * part of src/ without a description in scripts/architecture/folders.ts, or a generated part of
 * the doc that differs from src/. Spec files are left out: a test may import whatever it needs.
 *
 *   npm run check:cycles                  # the checks, exit 1 on a problem
 *   npm run check:cycles -- --edges       # also every import edge between modules and every
 *                                         # start-up registration, with files and lines
 *   npm run docs:architecture             # rewrite the generated parts of docs/architecture.md
 *                                         # (= npm run check:cycles -- --write-docs)
 */
import { readFileSync, writeFileSync } from 'fs';
import { resolve } from 'path';
import { REGENERATE, renderSections, spliceSections, staleSections } from './architecture/doc';
import { check, dependencyOrder, layerOf, problemCount } from './architecture/rules';
import { buildGraph, readSources, SourceGraph } from './architecture/source-graph';

const ROOT = resolve(__dirname, '..');
const DOC = resolve(ROOT, 'docs/architecture.md');

function printEdges(graph: SourceGraph): void {
  console.log('import edges (module -> module: file:line specifier)');
  for (const from of [
    '.',
    ...graph.folders.filter((f) => layerOf(f) === 'platform'),
    ...dependencyOrder(graph),
  ]) {
    const targets = [...(graph.edges.get(from) ?? [])].sort(([a], [b]) => a.localeCompare(b));
    const platform = targets.filter(([to]) => layerOf(to) === 'platform');
    if (from === '.') {
      const n = targets.reduce((sum, [, via]) => sum + via.length, 0);
      console.log(`  src/*.ts -> ${targets.map(([to]) => to).join(', ')}: ${n} imports`);
      continue;
    }
    const label = from;
    if (platform.length && layerOf(from) !== 'platform') {
      const n = platform.reduce((sum, [, via]) => sum + via.length, 0);
      console.log(`  ${label} -> platform (${platform.map(([to]) => to).join(', ')}): ${n} imports`);
    }
    for (const [to, via] of targets) {
      if (layerOf(to) === 'platform' && layerOf(from) !== 'platform') continue;
      console.log(`  ${label} -> ${to}`);
      for (const e of via) console.log(`      ${e.file}:${e.line} '${e.specifier}'`);
    }
  }
  console.log('start-up registrations (registry <- file:line call)');
  let last = '';
  for (const r of graph.registrations) {
    const key = `${r.registry.name} (${r.registry.file})`;
    if (key !== last) console.log(`  ${key}`);
    last = key;
    console.log(`      <- ${r.module}: ${r.file}:${r.line} ${r.call}`);
  }
}

function main(): void {
  const args = process.argv.slice(2);
  const graph = buildGraph(readSources(resolve(ROOT, 'src')));
  const findings = check(graph);
  if (args.includes('--edges')) printEdges(graph);

  for (const c of findings.cycles) {
    console.log(`cycle: ${c.join(' <-> ')}`);
    for (const from of c) {
      for (const [to, via] of graph.edges.get(from) ?? []) {
        if (c.includes(to))
          console.log(`  ${from} -> ${to}\n    ${via.map((e) => `${e.file}:${e.line}`).join('\n    ')}`);
      }
    }
  }
  for (const line of findings.layers) console.log(`layer: ${line}`);
  for (const line of findings.forwardRefs) console.log(`forwardRef: ${line}`);
  for (const line of findings.descriptions) console.log(`undescribed: ${line}`);
  for (const line of findings.unresolved) {
    console.log(
      `registration: cannot tell whose register method this calls (give the receiver a type): ${line}`,
    );
  }

  let docProblems = 0;
  const doc = readFileSync(DOC, 'utf8');
  const sections = renderSections(graph);
  if (args.includes('--write-docs')) {
    const next = spliceSections(doc, sections);
    if (next !== doc) writeFileSync(DOC, next);
    console.log(
      next === doc ? 'docs/architecture.md: already up to date' : 'docs/architecture.md: rewritten',
    );
  } else {
    const stale = staleSections(doc, sections);
    docProblems = stale.length;
    if (stale.length) {
      console.log(
        `docs/architecture.md: the generated ${stale.join(', ')} part(s) differ from src/: run \`${REGENERATE}\``,
      );
    }
  }

  const modules = graph.folders.length;
  const edges = [...graph.edges.values()].reduce((n, t) => n + t.size, 0);
  const registries = new Set(graph.registrations.map((r) => `${r.registry.file}#${r.registry.name}`)).size;
  console.log(
    `${modules} folders, ${edges} module edges, ${registries} registries with ` +
      `${graph.registrations.length} registrations; ${findings.cycles.length} module cycle(s), ` +
      `${findings.layers.length} import(s) across layers, ${findings.forwardRefs.length} file(s) with forwardRef`,
  );
  if (problemCount(findings) + docProblems > 0) process.exitCode = 1;
}

main();
