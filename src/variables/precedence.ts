/**
 * Which variable reaches a workspace's runs when several define the same key and category: the
 * real service's documented order, strongest first.
 *
 *   1  priority global set                       8  the workspace's own variables
 *   2  priority project-scoped set (org-owned)   9  workspace-scoped set (project-owned)
 *   3  priority workspace-scoped set (org-owned) 10 project-scoped set (project-owned)
 *   4  priority project-scoped set (prj-owned)   11 workspace-scoped set (org-owned)
 *   5  priority workspace-scoped set (prj-owned) 12 project-scoped set (org-owned)
 *   6  run variables (CLI -var, -var-file)       13 global set
 *   7  TF_VAR_* of the CLI's shell (sent as run variables too, so tier 6 here)
 *
 * Between sets of one tier the name first in Unicode code-point order wins. A set that reaches the
 * workspace in two ways (attached to it and to its project) counts at its strongest tier.
 */

/** How a set reaches the workspace. */
export type SetScope = 'global' | 'project' | 'workspace';

export interface SetOrigin {
  kind: 'varset';
  id: string;
  name: string;
  priority: boolean;
  /** Owned by a project (the set's parent), rather than by the organization. */
  projectOwned: boolean;
  /** Every way it reaches the workspace (a global set: `global` only). */
  scopes: readonly SetScope[];
}

export type Origin = { kind: 'workspace' } | { kind: 'run' } | SetOrigin;

export interface Candidate<V> {
  key: string;
  category: string;
  origin: Origin;
  variable: V;
}

export interface Effective<V> extends Candidate<V> {
  tier: number;
}

export const RUN_TIER = 6;
export const WORKSPACE_TIER = 8;

function setTier(set: SetOrigin, scope: SetScope): number {
  if (scope === 'global') return set.priority ? 1 : 13;
  const org = !set.projectOwned;
  if (set.priority) {
    if (org) return scope === 'project' ? 2 : 3;
    return scope === 'project' ? 4 : 5;
  }
  if (!org) return scope === 'workspace' ? 9 : 10;
  return scope === 'workspace' ? 11 : 12;
}

/** The tier of an origin: 1 is the strongest (see the table above). */
export function tierOf(origin: Origin): number {
  switch (origin.kind) {
    case 'workspace':
      return WORKSPACE_TIER;
    case 'run':
      return RUN_TIER;
    case 'varset':
      return Math.min(...origin.scopes.map((scope) => setTier(origin, scope)));
  }
}

/** Compares by Unicode code points (JavaScript's `<` compares UTF-16 units). */
export function compareCodePoints(a: string, b: string): number {
  const x = [...a];
  const y = [...b];
  for (let i = 0; i < Math.min(x.length, y.length); i++) {
    const d = x[i].codePointAt(0)! - y[i].codePointAt(0)!;
    if (d !== 0) return d;
  }
  return x.length - y.length;
}

function stronger<V>(a: Effective<V>, b: Effective<V>): boolean {
  if (a.tier !== b.tier) return a.tier < b.tier;
  if (a.origin.kind === 'varset' && b.origin.kind === 'varset') {
    const byName = compareCodePoints(a.origin.name, b.origin.name);
    if (byName !== 0) return byName < 0;
    return a.origin.id < b.origin.id;
  }
  return false;
}

/**
 * The variables that win, one per category and key, each with the tier it won at; ordered by
 * category, then key (code points).
 */
export function effectiveVariables<V>(candidates: readonly Candidate<V>[]): Effective<V>[] {
  const winners = new Map<string, Effective<V>>();
  for (const c of candidates) {
    const entry: Effective<V> = { ...c, tier: tierOf(c.origin) };
    const id = `${c.category}\u0000${c.key}`;
    const held = winners.get(id);
    if (!held || stronger(entry, held)) winners.set(id, entry);
  }
  return [...winners.values()].sort(
    (a, b) => compareCodePoints(a.category, b.category) || compareCodePoints(a.key, b.key),
  );
}
