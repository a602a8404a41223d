/** What one step of a prune did: rows it found past retention, and how many of them it removed. */
export interface PruneStep {
  found: number;
  removed: number;
}

/**
 * Runs `step` (which finds at most `chunk` rows past retention and removes them) until a step
 * finds fewer than `chunk`, pausing `pauseMs` between steps, so that a backlog of millions is
 * removed in short statements that leave the API room; how many were removed in all. A step
 * removes fewer than it found when another process removed them first.
 */
export async function pruneInBatches(
  step: () => Promise<PruneStep>,
  chunk: number,
  pauseMs: number,
): Promise<number> {
  let removed = 0;
  for (;;) {
    const done = await step();
    removed += done.removed;
    if (done.found < chunk) return removed;
    await new Promise((resolve) => setTimeout(resolve, pauseMs));
  }
}
