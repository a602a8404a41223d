/** Past this many, the oldest go: a version forgotten is only confirmed again by its UPDATE. */
const MAX_KEPT = 10_000;

/**
 * Configuration versions this process knows are not provisional. A version's `provisional` only
 * ever goes from true to false (a run of it applied), never back, so once a committed read or a
 * committed confirmation showed it false, every applied run of it may skip the confirming UPDATE,
 * which would change nothing. Anything not known here is confirmed by the UPDATE, as before.
 */
export class ConfirmedVersions {
  private readonly kept = new Set<string>();

  constructor(private readonly max = MAX_KEPT) {}

  /** `id` is committed as not provisional. */
  note(id: string): void {
    if (this.kept.has(id)) return;
    if (this.kept.size >= this.max) {
      const oldest = this.kept.values().next();
      if (!oldest.done) this.kept.delete(oldest.value);
    }
    this.kept.add(id);
  }

  has(id: string): boolean {
    return this.kept.has(id);
  }
}
