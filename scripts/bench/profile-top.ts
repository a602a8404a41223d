/**
 * Summarises V8 CPU profiles (`node --cpu-prof`, or BENCH_PROFILE=dir npm run bench):
 *   npm run bench:profile -- <file.cpuprofile|dir> [top=30]
 * prints the functions with the most self time, then self time by package or source file.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
}

interface CpuProfile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
}

function files(target: string): string[] {
  if (!statSync(target).isDirectory()) return [target];
  return readdirSync(target)
    .filter((f) => f.endsWith('.cpuprofile'))
    .map((f) => join(target, f));
}

/** node_modules/<package> (scoped too), a file under dist/ or src/, or the URL itself. */
function owner(url: string): string {
  if (!url) return '(native/V8)';
  const nm = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(url);
  if (nm) return nm[1];
  const local = /\/(dist|src)\/(.+)$/.exec(url);
  if (local) return `${local[1]}/${local[2]}`;
  if (url.startsWith('node:')) return url;
  return url.replace(/^file:\/\//, '');
}

function main(): void {
  const [target, topArg] = process.argv.slice(2);
  if (!target) {
    process.stderr.write('usage: npm run bench:profile -- <file.cpuprofile|dir> [top]\n');
    process.exitCode = 2;
    return;
  }
  const top = Number(topArg ?? '30');
  const byFunction = new Map<string, number>();
  const byOwner = new Map<string, number>();
  let total = 0;
  for (const file of files(target)) {
    const profile = JSON.parse(readFileSync(file, 'utf8')) as CpuProfile;
    const nodes = new Map(profile.nodes.map((n) => [n.id, n]));
    profile.samples.forEach((id, i) => {
      const node = nodes.get(id);
      if (!node) return;
      const micros = profile.timeDeltas[i] ?? 0;
      const { functionName, url, lineNumber } = node.callFrame;
      const fn = `${functionName || '(anonymous)'} ${owner(url)}:${lineNumber + 1}`;
      byFunction.set(fn, (byFunction.get(fn) ?? 0) + micros);
      byOwner.set(owner(url), (byOwner.get(owner(url)) ?? 0) + micros);
      total += micros;
    });
  }
  const print = (title: string, map: Map<string, number>) => {
    process.stdout.write(`\n${title}\n`);
    for (const [name, micros] of [...map].sort((a, b) => b[1] - a[1]).slice(0, top)) {
      const pct = ((micros / total) * 100).toFixed(1).padStart(5);
      process.stdout.write(`${pct}%  ${(micros / 1000).toFixed(0).padStart(7)} ms  ${name}\n`);
    }
  };
  process.stdout.write(`total sampled: ${(total / 1e6).toFixed(1)} s\n`);
  print('self time by function', byFunction);
  print('self time by package / file', byOwner);
}

main();
