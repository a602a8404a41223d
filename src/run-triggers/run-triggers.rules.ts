/** A workspace can have at most this many source workspaces. */
export const MAX_SOURCES_PER_WORKSPACE = 20;

/** One run trigger as an edge: a run finishing in `sourceableId` queues a run in `workspaceId`. */
export interface TriggerEdge {
  workspaceId: string;
  sourceableId: string;
}

export type RuleFailure =
  | { rule: 'duplicate' }
  | { rule: 'limit' }
  /** Workspace ids in firing order, starting and ending with the new trigger's source. */
  | { rule: 'cycle'; path: string[] };

/**
 * The path along which runs would come back to the candidate's source once the candidate
 * exists, or null. Breadth-first from the destination, so the path reported is a shortest one.
 */
export function cyclePath(edges: readonly TriggerEdge[], candidate: TriggerEdge): string[] | null {
  const { workspaceId: start, sourceableId: target } = candidate;
  if (start === target) return [target, target];
  const downstream = new Map<string, string[]>();
  for (const e of edges) {
    const next = downstream.get(e.sourceableId);
    if (next) next.push(e.workspaceId);
    else downstream.set(e.sourceableId, [e.workspaceId]);
  }
  const cameFrom = new Map<string, string | null>([[start, null]]);
  const queue = [start];
  for (let i = 0; i < queue.length; i++) {
    const current = queue[i];
    for (const next of downstream.get(current) ?? []) {
      if (cameFrom.has(next)) continue;
      cameFrom.set(next, current);
      if (next === target) {
        const path: string[] = [];
        for (let at: string | null = next; at !== null; at = cameFrom.get(at) ?? null) path.push(at);
        return [target, ...path.reverse()];
      }
      queue.push(next);
    }
  }
  return null;
}

/**
 * Every rule the candidate breaks against the organization's existing triggers: the same pair
 * twice, too many sources for one destination, or a cycle.
 */
export function ruleFailures(edges: readonly TriggerEdge[], candidate: TriggerEdge): RuleFailure[] {
  const failures: RuleFailure[] = [];
  const inbound = edges.filter((e) => e.workspaceId === candidate.workspaceId);
  if (inbound.some((e) => e.sourceableId === candidate.sourceableId)) {
    failures.push({ rule: 'duplicate' });
  } else if (inbound.length >= MAX_SOURCES_PER_WORKSPACE) {
    failures.push({ rule: 'limit' });
  }
  const path = cyclePath(edges, candidate);
  if (path) failures.push({ rule: 'cycle', path });
  return failures;
}

export const UNREADABLE_WORKSPACES = '(workspaces you cannot read)';

/**
 * A cycle spelled out for someone who may read only some of its workspaces: the readable ones by
 * name, each stretch of others as one placeholder, so neither their names nor their number show.
 */
export function describeCycle(path: readonly string[], readableNames: ReadonlyMap<string, string>): string {
  const parts: string[] = [];
  for (const id of path) {
    const part = readableNames.get(id) ?? UNREADABLE_WORKSPACES;
    if (part !== UNREADABLE_WORKSPACES || parts[parts.length - 1] !== UNREADABLE_WORKSPACES) parts.push(part);
  }
  return parts.join(' → ');
}
