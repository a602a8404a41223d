/** What a plan or apply changes, as the job report carries it. */
export interface ChangeCounts {
  'has-changes': boolean;
  'resource-additions': number;
  'resource-changes': number;
  'resource-destructions': number;
  'resource-imports': number;
}

interface PlanJson {
  resource_changes?: { change?: { actions?: unknown; importing?: unknown } }[];
}

/**
 * Counts from the tool's plan JSON (`resource_changes[].change.actions`): a replacement
 * (`["delete","create"]` or `["create","delete"]`) counts as one addition and one destruction,
 * as the tool's own summary does; `no-op` and `read` change nothing; an `importing` block is an import.
 */
export function countPlanChanges(planJson: string): ChangeCounts {
  let parsed: PlanJson;
  try {
    parsed = JSON.parse(planJson) as PlanJson;
  } catch {
    throw new Error('the plan JSON is not valid JSON');
  }
  const counts = { additions: 0, changes: 0, destructions: 0, imports: 0 };
  for (const rc of parsed.resource_changes ?? []) {
    const actions = Array.isArray(rc.change?.actions) ? (rc.change.actions as unknown[]) : [];
    if (actions.includes('create')) counts.additions++;
    if (actions.includes('delete')) counts.destructions++;
    if (actions.includes('update')) counts.changes++;
    if (rc.change?.importing) counts.imports++;
  }
  return {
    'has-changes': counts.additions + counts.changes + counts.destructions + counts.imports > 0,
    'resource-additions': counts.additions,
    'resource-changes': counts.changes,
    'resource-destructions': counts.destructions,
    'resource-imports': counts.imports,
  };
}

/**
 * Counts of an apply, read from the tool's closing line ("Apply complete! Resources: 1 added,
 * 0 changed, 0 destroyed." or "Resources: 1 imported, 1 added, ..."); null when there is none.
 */
export function countApplyChanges(log: string): ChangeCounts | null {
  const matches = [
    ...log.matchAll(/Resources: (?:(\d+) imported, )?(\d+) added, (\d+) changed, (\d+) destroyed/g),
  ];
  const last = matches.at(-1);
  if (!last) return null;
  const [imports, additions, changes, destructions] = last.slice(1).map((n) => Number(n ?? 0));
  return {
    'has-changes': imports + additions + changes + destructions > 0,
    'resource-additions': additions,
    'resource-changes': changes,
    'resource-destructions': destructions,
    'resource-imports': imports,
  };
}
