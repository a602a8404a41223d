import { Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import { Catalog } from './catalogs';

/**
 * How many consumers pin each of the given versions; versions nobody pins may be left out.
 * Given a transaction's manager, the counter reads through it: a delete or rename counts while it
 * holds the entry's lock, and must not wait for a second connection meanwhile.
 */
export type UsageCounter = (versions: string[], manager?: EntityManager) => Promise<Map<string, number>>;

/** Singular and plural noun of a consumer, for messages ("1 workspace", "3 policy sets"). */
export interface ConsumerNoun {
  one: string;
  other: string;
}

export interface ConsumerUsage {
  noun: ConsumerNoun;
  count: number;
}

interface Registration {
  counter: UsageCounter;
  noun: ConsumerNoun;
}

/** Catalog versions compare without regard to case, on both dialects. */
const key = (version: string) => version.toLowerCase();

/**
 * Who pins catalog versions. Each consuming module (workspaces, policy sets) registers a counter
 * at start-up; `usage` and the delete guard add up every counter of the catalog, so this module
 * needs no knowledge of the consumers' tables.
 */
@Injectable()
export class CatalogUsageRegistry {
  private readonly registrations = new Map<Catalog, Registration[]>();

  register(catalog: Catalog, counter: UsageCounter, noun: ConsumerNoun): void {
    const list = this.registrations.get(catalog) ?? [];
    list.push({ counter, noun });
    this.registrations.set(catalog, list);
  }

  /** Total usage of each version over every consumer: one aggregate query per consumer. */
  async totals(catalog: Catalog, versions: string[]): Promise<Map<string, number>> {
    const totals = new Map<string, number>(versions.map((v) => [key(v), 0]));
    if (!versions.length) return totals;
    for (const counts of await this.countAll(catalog, versions, undefined)) {
      for (const [version, count] of counts) {
        const k = key(version);
        if (totals.has(k)) totals.set(k, (totals.get(k) ?? 0) + count);
      }
    }
    return totals;
  }

  /** Usage of one version by each consumer that pins it at least once, read through `manager`. */
  async consumersOf(catalog: Catalog, version: string, manager: EntityManager): Promise<ConsumerUsage[]> {
    const registrations = this.registrations.get(catalog) ?? [];
    const all = await this.countAll(catalog, [version], manager);
    return registrations
      .map((r, i) => ({
        noun: r.noun,
        count: [...all[i].entries()]
          .filter(([v]) => key(v) === key(version))
          .reduce((sum, [, n]) => sum + n, 0),
      }))
      .filter((u) => u.count > 0);
  }

  static describe(usage: ConsumerUsage[]): string {
    return usage.map((u) => `${u.count} ${u.count === 1 ? u.noun.one : u.noun.other}`).join(' and ');
  }

  private async countAll(
    catalog: Catalog,
    versions: string[],
    manager: EntityManager | undefined,
  ): Promise<Map<string, number>[]> {
    const registrations = this.registrations.get(catalog) ?? [];
    // One connection runs one query at a time: a transaction's counters take turns.
    if (manager) {
      const all: Map<string, number>[] = [];
      for (const r of registrations) all.push(await r.counter(versions, manager));
      return all;
    }
    return Promise.all(registrations.map((r) => r.counter(versions)));
  }
}
