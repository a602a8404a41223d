import { DataSource } from 'typeorm';

/** What one statement does to the tables: reads them, writes them, or writes something unknown. */
export interface StatementEffect {
  reads: readonly string[];
  /** null: writes nothing; 'all': writes tables it does not name (DDL on an unknown table). */
  writes: readonly string[] | 'all' | null;
}

/** A write on `parent` (update or delete) also changes `child` through a foreign key's action. */
export interface Cascade {
  parent: string;
  child: string;
}

const NOTHING: StatementEffect = { reads: [], writes: null };

/** Statements that change no table's rows. */
const NO_DATA = new Set([
  'begin',
  'start',
  'commit',
  'rollback',
  'savepoint',
  'release',
  'set',
  'show',
  'pragma',
  'explain',
  'analyze',
  'describe',
  'lock',
  'unlock',
]);

const WORD = /[A-Za-z_][A-Za-z0-9_$]*/g;
/** The one table a plain write names first: `INSERT INTO t`, `UPDATE t SET`, `DELETE FROM t`. */
const SIMPLE_TARGET =
  /^\s*(?:insert\s+(?:ignore\s+)?into|replace\s+into|update\s+(?:ignore\s+)?|delete\s+from)\s+[`"[]?([A-Za-z_][A-Za-z0-9_$]*)[`"\]]?\s*(?:\(|set\b|where\b|values\b|select\b|order\b|limit\b|returning\b|on\b|$)/i;

/** Distinct SQL texts remembered; parameters are separate, so a server has a few hundred. */
const MAX_REMEMBERED = 5_000;

/**
 * Which tables a statement reads and writes, from its text and the schema: every word that is a
 * table's name is a table the statement reads (a column or alias of the same name only adds a
 * table, which is safe: more answers end than had to); a write names its target, and a delete or
 * update also changes every table a foreign key cascades to from it (ON DELETE/UPDATE CASCADE or
 * SET NULL), transitively. A write whose target cannot be told writes every table it names; one
 * that names no known table (DDL of a new table, a statement of an unknown kind) writes 'all'.
 */
export class StatementTables {
  private readonly tables: ReadonlySet<string>;
  private readonly ignored: ReadonlySet<string>;
  private readonly cascadesFrom = new Map<string, string[]>();
  private readonly remembered = new Map<string, StatementEffect>();

  constructor(tables: Iterable<string>, cascades: readonly Cascade[], ignored: Iterable<string> = []) {
    this.tables = new Set([...tables].map((t) => t.toLowerCase()));
    this.ignored = new Set([...ignored].map((t) => t.toLowerCase()));
    const direct = new Map<string, Set<string>>();
    for (const { parent, child } of cascades) {
      const p = parent.toLowerCase();
      if (!direct.has(p)) direct.set(p, new Set());
      direct.get(p)!.add(child.toLowerCase());
    }
    for (const parent of direct.keys()) {
      const reached = new Set<string>();
      const todo = [parent];
      while (todo.length) {
        for (const child of direct.get(todo.pop()!) ?? []) {
          if (child !== parent && !reached.has(child)) {
            reached.add(child);
            todo.push(child);
          }
        }
      }
      this.cascadesFrom.set(parent, [...reached]);
    }
  }

  effectOf(sql: string): StatementEffect {
    let effect = this.remembered.get(sql);
    if (!effect) {
      effect = this.parse(sql);
      if (this.remembered.size >= MAX_REMEMBERED) this.remembered.clear();
      this.remembered.set(sql, effect);
    }
    return effect;
  }

  private parse(sql: string): StatementEffect {
    const keyword = /^\s*([A-Za-z]+)/.exec(sql)?.[1].toLowerCase() ?? '';
    if (NO_DATA.has(keyword)) return NOTHING;
    const { named, ignored } = this.named(sql);
    // The change counters' own statements (ChangeEpoch): not a change of anything a reader sees.
    if (ignored && !named.length) return NOTHING;
    if (keyword === 'select' || (keyword === 'with' && !/\b(insert|update|delete|replace)\b/i.test(sql))) {
      return { reads: named, writes: null };
    }
    const simple = ['insert', 'update', 'delete', 'replace'].includes(keyword);
    const target = simple ? SIMPLE_TARGET.exec(sql)?.[1].toLowerCase() : undefined;
    const written = target && this.tables.has(target) ? [target] : named;
    if (!written.length) return { reads: [], writes: 'all' };
    // A plain insert changes no other row; anything else may fire a foreign key's action.
    const plainInsert = keyword === 'insert' && !/\bon\s+(duplicate|conflict)\b/i.test(sql);
    const all = new Set(written);
    if (!plainInsert) for (const t of written) for (const c of this.cascadesFrom.get(t) ?? []) all.add(c);
    return { reads: [], writes: [...all] };
  }

  /** The known tables the statement names, each once, and whether it names an ignored one. */
  private named(sql: string): { named: string[]; ignored: boolean } {
    const found = new Set<string>();
    let ignored = false;
    for (const word of sql.match(WORD) ?? []) {
      const lower = word.toLowerCase();
      if (this.ignored.has(lower)) ignored = true;
      else if (this.tables.has(lower)) found.add(lower);
    }
    return { named: [...found], ignored };
  }
}

/** The tables and foreign-key cascades of the data source's entities (junction tables included). */
export function statementTablesOf(ds: DataSource, ignored: Iterable<string>): StatementTables {
  const tables = ds.entityMetadatas.map((m) => m.tableName);
  const cascades: Cascade[] = [];
  for (const m of ds.entityMetadatas) {
    for (const fk of m.foreignKeys) {
      const acts = [fk.onDelete, fk.onUpdate].some((a) => a && a !== 'RESTRICT' && a !== 'NO ACTION');
      if (acts) cascades.push({ parent: fk.referencedEntityMetadata.tableName, child: m.tableName });
    }
  }
  return new StatementTables(tables, cascades, ignored);
}
