import { Injectable } from '@nestjs/common';
import { Secrets } from './secrets.service';
import { WrappedKeyHolders } from './wrapped-key-holders';

/** Rows read and re-wrapped per round trip. */
const BATCH = 200;

export interface RotationReport {
  /** The master key every re-wrapped data key is now wrapped with. */
  keyId: string;
  holders: {
    name: string;
    /** Data keys re-wrapped by this rotation. */
    rewrapped: number;
    /** Data keys left as they were: wrapped by a master key this process does not hold, by id. */
    unreadable: Record<string, number>;
  }[];
}

/**
 * Re-wraps every stored data key under the current master key (see docs/state.md, "Rotating the
 * encryption key"). Servers keep running meanwhile: they unwrap with any configured key, and each
 * row is replaced by a compare-and-set, so a row written or re-wrapped since it was read is left
 * to its new value.
 */
@Injectable()
export class SecretsRotation {
  constructor(
    private readonly secrets: Secrets,
    private readonly holders: WrappedKeyHolders,
  ) {}

  async rotate(): Promise<RotationReport> {
    const keyId = this.secrets.currentKeyId;
    const report: RotationReport = { keyId, holders: [] };
    for (const holder of this.holders.all()) {
      const entry = { name: holder.name, rewrapped: 0, unreadable: {} as Record<string, number> };
      report.holders.push(entry);
      let after = '';
      for (;;) {
        const rows = await holder.batch(after, BATCH);
        if (!rows.length) break;
        for (const row of rows) {
          const from = this.secrets.keyIdOf(row.wrapped);
          if (from === keyId) continue;
          if (!this.secrets.knows(from)) {
            entry.unreadable[from] = (entry.unreadable[from] ?? 0) + 1;
            continue;
          }
          const next = this.secrets.rewrap(row.wrapped);
          if (next !== null && (await holder.replace(row.id, row.wrapped, next))) entry.rewrapped += 1;
        }
        after = rows[rows.length - 1].id;
      }
    }
    return report;
  }
}
