/**
 * The rules `npm run check:cycles` enforces on the module graph: no cycle between modules (the
 * platform folders counting as one), the layers (the platform imports no domain module, nothing in
 * the server imports a program, only entry files import entry files), no `forwardRef`, and every
 * part of src/ described in folders.ts.
 */
import { ENTRY_FILES, Folder, FOLDERS, Layer, SUBFOLDERS } from './folders';
import { nodeOf, SourceGraph } from './source-graph';

export type LayerOrEntry = Layer | 'entry';

export interface Descriptions {
  entryFiles: Record<string, string>;
  folders: Record<string, Folder>;
  subfolders: Record<string, string>;
}

export const DESCRIPTIONS: Descriptions = {
  entryFiles: ENTRY_FILES,
  folders: FOLDERS,
  subfolders: SUBFOLDERS,
};

export interface Findings {
  /** Sets of modules that import each other, each sorted. */
  cycles: string[][];
  /** One line per import that crosses the layers the wrong way. */
  layers: string[];
  forwardRefs: string[];
  /** Parts of src/ without a description, and descriptions of parts that are gone. */
  descriptions: string[];
  unresolved: string[];
}

export function layerOf(module: string, d: Descriptions = DESCRIPTIONS): LayerOrEntry {
  if (module === '.') return 'entry';
  // An undescribed folder is reported as such and checked as a domain module meanwhile.
  return d.folders[module]?.layer ?? 'domain';
}

/** What each layer may import. */
const MAY_IMPORT: Record<LayerOrEntry, LayerOrEntry[]> = {
  entry: ['entry', 'platform', 'domain', 'program'],
  platform: ['platform'],
  domain: ['platform', 'domain'],
  program: ['platform', 'domain', 'program'],
};

export function check(graph: SourceGraph, d: Descriptions = DESCRIPTIONS): Findings {
  const layers: string[] = [];
  for (const [from, targets] of sorted(graph.edges)) {
    for (const [to, via] of sorted(targets)) {
      const [fl, tl] = [layerOf(from, d), layerOf(to, d)];
      if (MAY_IMPORT[fl].includes(tl)) continue;
      for (const e of via)
        layers.push(`${fl} ${from} imports ${tl} ${to}: ${e.file}:${e.line} '${e.specifier}'`);
    }
  }
  return {
    cycles: cycles(graph, d),
    layers,
    forwardRefs: graph.forwardRefs.map((f) => `${f.file}: ${f.count}`),
    descriptions: describedOrNot(graph, d),
    unresolved: graph.unresolved,
  };
}

export function problemCount(f: Findings): number {
  return (
    f.cycles.length + f.layers.length + f.forwardRefs.length + f.descriptions.length + f.unresolved.length
  );
}

function sorted<V>(map: Map<string, V>): [string, V][] {
  return [...map].sort(([a], [b]) => a.localeCompare(b));
}

function describedOrNot(graph: SourceGraph, d: Descriptions): string[] {
  const out: string[] = [];
  const where = 'scripts/architecture/folders.ts';
  for (const f of graph.entryFiles) {
    if (!(f in d.entryFiles)) out.push(`src/${f} has no line in ENTRY_FILES (${where})`);
  }
  for (const f of Object.keys(d.entryFiles)) {
    if (!graph.entryFiles.includes(f)) out.push(`ENTRY_FILES (${where}) describes src/${f}, which is gone`);
  }
  for (const f of graph.folders) {
    if (!(f in d.folders)) out.push(`src/${f}/ has no line in FOLDERS (${where}): its layer and what it is`);
  }
  for (const f of Object.keys(d.folders)) {
    if (!graph.folders.includes(f)) out.push(`FOLDERS (${where}) describes src/${f}/, which is gone`);
  }
  for (const f of Object.keys(d.subfolders)) {
    const [top, sub] = f.split('/');
    if (!graph.subfolders.get(top)?.includes(sub)) {
      out.push(`SUBFOLDERS (${where}) describes src/${f}/, which is gone`);
    }
  }
  return out;
}

/** Strongly connected components of more than one node (Tarjan), the platform as one node. */
function cycles(graph: SourceGraph, d: Descriptions): string[][] {
  const node = (m: string) => nodeOf(m, (x) => (x === '.' ? undefined : (d.folders[x]?.layer ?? 'domain')));
  const next = new Map<string, Set<string>>();
  for (const [from, targets] of graph.edges) {
    for (const to of targets.keys()) {
      const [a, b] = [node(from), node(to)];
      if (a === b) continue;
      next.set(a, (next.get(a) ?? new Set()).add(b));
    }
  }
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const out: string[][] = [];
  let counter = 0;
  const visit = (v: string): void => {
    index.set(v, counter);
    low.set(v, counter++);
    stack.push(v);
    onStack.add(v);
    for (const w of [...(next.get(v) ?? [])].sort()) {
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (onStack.has(w)) {
        low.set(v, Math.min(low.get(v)!, index.get(w)!));
      }
    }
    if (low.get(v) === index.get(v)) {
      const component: string[] = [];
      let w: string;
      do {
        w = stack.pop()!;
        onStack.delete(w);
        component.push(w);
      } while (w !== v);
      if (component.length > 1) out.push(component.sort());
    }
  };
  for (const v of [...next.keys()].sort()) if (!index.has(v)) visit(v);
  return out;
}

/**
 * Domain modules, then programs, by level: a module that imports no other is at level 0, any other
 * one level above the highest module it imports (alphabetical within a level). Modules caught in a
 * cycle, which the check refuses anyway, come last.
 */
export function dependencyLevels(graph: SourceGraph, d: Descriptions = DESCRIPTIONS): Map<string, number> {
  const levels = new Map<string, number>();
  for (const layer of ['domain', 'program'] as const) {
    const modules = graph.folders.filter((m) => layerOf(m, d) === layer);
    const level = (m: string, seen: Set<string>): number => {
      const known = levels.get(m);
      if (known !== undefined) return known;
      if (seen.has(m)) return Infinity;
      seen.add(m);
      const below = [...(graph.edges.get(m)?.keys() ?? [])].filter(
        (t) => modules.includes(t) || levels.has(t),
      );
      const value = below.length ? Math.max(...below.map((t) => level(t, seen))) + 1 : 0;
      seen.delete(m);
      return value;
    };
    const computed = modules.map((m) => [m, level(m, new Set())] as const);
    for (const [m, value] of computed) levels.set(m, value);
  }
  return levels;
}

export function dependencyOrder(graph: SourceGraph, d: Descriptions = DESCRIPTIONS): string[] {
  const levels = dependencyLevels(graph, d);
  const rank = (m: string) => (layerOf(m, d) === 'program' ? 1 : 0);
  return [...levels.keys()].sort(
    (a, b) => rank(a) - rank(b) || levels.get(a)! - levels.get(b)! || a.localeCompare(b),
  );
}
