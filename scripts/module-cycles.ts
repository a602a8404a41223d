/**
 * Reports import cycles between the modules under src/ (a module is a top-level folder) and every
 * `forwardRef` left in src/. Exits 1 when either exists, so `npm run check:cycles` (run in CI)
 * keeps the module graph one-way. Spec files are left out: a test may import whatever it needs.
 *
 *   npm run check:cycles              # summary, exit 1 on a cycle
 *   npm run check:cycles -- --edges   # also the file-level imports that close each cycle
 */
import { readdirSync, readFileSync, statSync } from 'fs';
import { dirname, join, relative, resolve } from 'path';

const ROOT = resolve(__dirname, '..', 'src');
/**
 * Files allowed to import other modules' entities without that counting as a module edge. Keep in
 * step with the list of exceptions in docs/architecture.md. Besides these, an entity naming the
 * entity its foreign key references is schema, not a call, and does not count either.
 */
const EXCEPTIONS: Record<string, string> = {
  'common/auth/access.repository.ts':
    'the queries behind every permission decision read tokens, users, teams and grants in one place',
};

const IMPORT = /(?:import|export)\s[^'"]*?from\s+['"](\.[^'"]+)['"]/g;

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return name === 'migrations' ? [] : sourceFiles(path);
    return name.endsWith('.ts') && !name.endsWith('.spec.ts') ? [path] : [];
  });
}

/**
 * The platform folders every domain module stands on count as one module: they are wired together
 * at start-up (configuration, logging, the database, the request pipeline) and import no domain
 * module. Cycles among them are not what this check guards.
 */
const PLATFORM = new Set(['common', 'config', 'http', 'observability', 'persistence']);

/** `organizations`, `platform`, or `.` for files directly under src/. */
function moduleOf(file: string): string {
  const parts = relative(ROOT, file).split('/');
  if (parts.length === 1) return '.';
  return PLATFORM.has(parts[0]) ? 'platform' : parts[0];
}

type Edges = Map<string, Map<string, string[]>>;

function moduleGraph(files: string[]): Edges {
  const edges: Edges = new Map();
  for (const file of files) {
    const from = moduleOf(file);
    const path = relative(ROOT, file);
    const exempt = path in EXCEPTIONS || path.includes('/entities/');
    for (const match of readFileSync(file, 'utf8').matchAll(IMPORT)) {
      const to = moduleOf(resolve(dirname(file), match[1]));
      if (to === from || (exempt && match[1].includes('/entities/'))) continue;
      const targets = edges.get(from) ?? new Map<string, string[]>();
      edges.set(from, targets);
      targets.set(to, [...(targets.get(to) ?? []), `${relative(ROOT, file)} -> ${match[1]}`]);
    }
  }
  return edges;
}

/** Strongly connected components with more than one module (Tarjan). */
function cycles(edges: Edges): string[][] {
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const out: string[][] = [];
  let next = 0;
  const visit = (v: string): void => {
    index.set(v, next);
    low.set(v, next++);
    stack.push(v);
    onStack.add(v);
    for (const w of edges.get(v)?.keys() ?? []) {
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
  for (const v of edges.keys()) if (!index.has(v)) visit(v);
  return out;
}

function main(): void {
  const files = sourceFiles(ROOT);
  const edges = moduleGraph(files);
  const found = cycles(edges);
  const forwardRefs = files.flatMap((f) => {
    const n = (readFileSync(f, 'utf8').match(/forwardRef\(/g) ?? []).length;
    return n > 0 ? [`${relative(ROOT, f)}: ${n}`] : [];
  });
  for (const component of found) {
    console.log(`cycle: ${component.join(' <-> ')}`);
    if (process.argv.includes('--edges')) {
      for (const from of component) {
        for (const [to, via] of edges.get(from) ?? []) {
          if (component.includes(to)) console.log(`  ${from} -> ${to}\n    ${via.join('\n    ')}`);
        }
      }
    }
  }
  for (const line of forwardRefs) console.log(`forwardRef: ${line}`);
  console.log(`${found.length} module cycle(s), ${forwardRefs.length} file(s) with forwardRef`);
  if (found.length > 0 || forwardRefs.length > 0) process.exitCode = 1;
}

main();
