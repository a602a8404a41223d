/**
 * The parts of docs/architecture.md written from src/: the layout, the module dependencies and the
 * start-up registrations. Each sits between `<!-- generated:NAME … -->` and `<!-- /generated:NAME -->`;
 * `npm run docs:architecture` rewrites them, `npm run check:cycles` and the docs test fail while they
 * differ from what src/ says.
 */
import { DESCRIPTIONS, Descriptions, dependencyLevels, dependencyOrder, layerOf } from './rules';
import { Registration, SourceGraph } from './source-graph';
import { UNLISTED_SUBFOLDERS } from './folders';

export const REGENERATE = 'npm run docs:architecture';

const WIDTH = 100;

export type SectionName = 'layout' | 'dependencies' | 'registrations';

export function renderSections(
  graph: SourceGraph,
  d: Descriptions = DESCRIPTIONS,
): Record<SectionName, string> {
  return {
    layout: renderLayout(graph, d),
    dependencies: renderDependencies(graph, d),
    registrations: renderRegistrations(graph),
  };
}

/** Words of `text` in lines of at most `width`, the first after `first`, the others after `indent`. */
function wrap(first: string, indent: string, text: string, width = WIDTH): string[] {
  const lines: string[] = [];
  let line = first;
  let empty = true;
  for (const word of text.split(/\s+/).filter(Boolean)) {
    if (!empty && line.length + 1 + word.length > width) {
      lines.push(line.trimEnd());
      line = indent;
      empty = true;
    }
    line += (empty ? '' : ' ') + word;
    empty = false;
  }
  lines.push(line.trimEnd());
  return lines;
}

function renderLayout(graph: SourceGraph, d: Descriptions): string {
  const rows: [string, string][] = [];
  const group = (title: string, layer: 'platform' | 'domain' | 'program') => {
    const folders = graph.folders.filter((f) => layerOf(f, d) === layer);
    if (!folders.length) return;
    rows.push(['', ''], [`  ${title}`, '']);
    for (const f of folders) {
      rows.push([`  ${f}/`, d.folders[f]?.text ?? '']);
      for (const sub of graph.subfolders.get(f) ?? []) {
        if (!UNLISTED_SUBFOLDERS.has(sub)) rows.push([`    ${sub}/`, d.subfolders[`${f}/${sub}`] ?? '']);
      }
    }
  };
  rows.push(['src/', '']);
  // The entry files in the order folders.ts tells them (how a process starts), any new one last.
  const entries = [...Object.keys(d.entryFiles).filter((f) => graph.entryFiles.includes(f))];
  for (const f of graph.entryFiles) if (!entries.includes(f)) entries.push(f);
  for (const f of entries) rows.push([`  ${f}`, d.entryFiles[f] ?? '']);
  group('platform: one layer every module stands on; imports no domain module', 'platform');
  group('domain modules: import the platform and each other, never in a cycle', 'domain');
  group('programs of their own beside the server; nothing in the server imports them', 'program');
  const column = Math.max(...rows.filter(([, text]) => text).map(([name]) => name.length)) + 2;
  const lines = rows.flatMap(([name, text]) =>
    text ? wrap(name.padEnd(column), ' '.repeat(column), text) : [name],
  );
  return ['```', ...lines, '```'].join('\n');
}

const code = (s: string) => `\`${s}\``;

function renderDependencies(graph: SourceGraph, d: Descriptions): string {
  const order = dependencyOrder(graph, d);
  const levels = dependencyLevels(graph, d);
  const registersWith = new Map<string, Map<string, Set<string>>>();
  for (const r of graph.registrations) {
    const byModule = registersWith.get(r.module) ?? new Map<string, Set<string>>();
    registersWith.set(r.module, byModule);
    byModule.set(r.registry.module, (byModule.get(r.registry.module) ?? new Set()).add(r.registry.name));
  }
  const importedBy = new Set<string>();
  const rows = order.map((m) => {
    const imports = [...(graph.edges.get(m)?.keys() ?? [])]
      .filter((t) => ['domain', 'program'].includes(layerOf(t, d)))
      .sort();
    imports.forEach((t) => importedBy.add(t));
    const registers = [...(registersWith.get(m) ?? new Map<string, Set<string>>())]
      .sort(([a], [b]) => a.localeCompare(b))
      .map(([target, names]) => `${code(target)} (${[...names].sort().join(', ')})`);
    const level = layerOf(m, d) === 'program' ? 'program' : String(levels.get(m));
    return `| ${level} | ${code(m)} | ${imports.map(code).join(', ') || '—'} | ${registers.join(', ') || '—'} |`;
  });
  const platform = graph.folders.filter((f) => layerOf(f, d) === 'platform').map((f) => code(`${f}/`));
  const top = order.filter((m) => !importedBy.has(m));
  return [
    '| Level | Module | Imports (besides the platform) | Registers with, at start-up |',
    '|---|---|---|---|',
    ...rows,
    '',
    ...wrap(
      '',
      '',
      `The platform is ${platform.join(', ')}. Imported by no other module: ${top.map(code).join(', ')}.`,
    ),
  ].join('\n');
}

function renderRegistrations(graph: SourceGraph): string {
  const byRegistry = new Map<string, Registration[]>();
  for (const r of graph.registrations) {
    const key = `${r.registry.file}#${r.registry.name}`;
    byRegistry.set(key, [...(byRegistry.get(key) ?? []), r]);
  }
  const modules = new Set(graph.registrations.map((r) => r.module));
  const lines = wrap(
    '',
    '',
    `${byRegistry.size} registries take ${graph.registrations.length} registrations from ` +
      `${modules.size} modules:`,
  );
  lines.push('');
  for (const regs of byRegistry.values()) {
    const { name, file, summary } = regs[0].registry;
    const files = new Map<string, number>();
    for (const r of regs) files.set(r.file, (files.get(r.file) ?? 0) + 1);
    const by = [...files].map(([f, n]) => `${code(f)}${n > 1 ? ` (${n} calls)` : ''}`).join(', ');
    lines.push(...wrap(`- ${code(name)} in ${code(file)}: `, '  ', `${summary} Registered by ${by}.`));
  }
  return lines.join('\n');
}

const BLOCK = (name: string) =>
  new RegExp(`(<!-- generated:${name}\\b[^>]*-->)([\\s\\S]*?)(<!-- /generated:${name} -->)`);

/** A section's text between its markers, each on a line of its own. */
const between = (body: string) => `\n${body}\n`;

/** The document with each section replaced; throws when a section's markers are missing. */
export function spliceSections(doc: string, sections: Record<string, string>): string {
  let out = doc;
  for (const [name, body] of Object.entries(sections)) {
    if (!BLOCK(name).test(out)) {
      throw new Error(`no <!-- generated:${name} --> … <!-- /generated:${name} --> block to write into`);
    }
    out = out.replace(
      BLOCK(name),
      (_all, open: string, _old: string, close: string) => open + between(body) + close,
    );
  }
  return out;
}

/** The sections whose text in `doc` differs from what src/ says now. */
export function staleSections(doc: string, sections: Record<string, string>): string[] {
  return Object.entries(sections)
    .filter(([name, body]) => BLOCK(name).exec(doc)?.[2] !== between(body))
    .map(([name]) => name);
}
