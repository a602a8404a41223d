import { Injectable } from '@nestjs/common';

/** A row holding a wrapped data key (or a sealed value, which starts with one). */
export interface WrappedKeyRow {
  id: string;
  wrapped: string;
}

/**
 * A column of some module's table that holds wrapped data keys or sealed values. The owning module
 * registers it at start-up, so that a rotation re-wraps every data key without knowing the tables.
 */
export interface WrappedKeyHolder {
  /** What the keys protect, as the rotation reports it: `state files`, `state version outputs`. */
  name: string;
  /** Up to `limit` rows holding a key, in id order after `afterId` (empty: from the start). */
  batch(afterId: string, limit: number): Promise<WrappedKeyRow[]>;
  /** Replaces `from` with `to` in that row, only if it still holds `from`; false otherwise. */
  replace(id: string, from: string, to: string): Promise<boolean>;
}

/** Every column holding wrapped keys, registered by the modules that own them. */
@Injectable()
export class WrappedKeyHolders {
  private readonly holders: WrappedKeyHolder[] = [];

  register(holder: WrappedKeyHolder): void {
    this.holders.push(holder);
  }

  all(): readonly WrappedKeyHolder[] {
    return this.holders;
  }
}
