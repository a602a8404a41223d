import { DataSource } from 'typeorm';

/** What one statement does to the tables: reads them, writes them, or writes something unknown. */
export interface StatementEffect {
  reads: readonly string[];
  /** null: writes nothing; 'all': writes tables it does not name (DDL on an unknown table). */
  writes: readonly string[] | 'all' | null;
}

/** Which writes of a parent row fire a foreign key's action on its children. */
export type CascadeTrigger = 'delete' | 'update';

/**
 * A write on `parent` also changes `child` through a foreign key's action: a delete where the key
 * says ON DELETE CASCADE or SET NULL, an update where it says so ON UPDATE.
 */
export interface Cascade {
  parent: string;
  child: string;
  on: readonly CascadeTrigger[];
}

const NOTHING: StatementEffect = { reads: [], writes: null };

/**
 * Begins a write whose change no answer shows, so that it ends no remembered answer and is not
 * announced (a running job's heartbeat time, read only by the timeout sweeper, never cached).
 */
export const UNSEEN_WRITE = '/* unseen */ ';

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
/** A single-quoted string literal (a doubled quote inside reads as two literals side by side). */
const LITERAL = /'[^']*'/g;
/** The one table a plain write names first: `INSERT INTO t`, `UPDATE t SET`, `DELETE FROM t`. */
const SIMPLE_TARGET =
  /^\s*(?:insert\s+(?:ignore\s+)?into|replace\s+into|update\s+(?:ignore\s+)?|delete\s+from)\s+[`"[]?([A-Za-z_][A-Za-z0-9_$]*)[`"\]]?\s*(?:\(|set\b|where\b|values\b|select\b|order\b|limit\b|returning\b|on\b|$)/i;

/** Distinct SQL texts remembered; parameters are separate, so a server has a few hundred. */
const MAX_REMEMBERED = 5_000;

/**
 * Which tables a statement reads and writes, from its text and the schema: every word that is a
 * table's name is a table the statement reads (a column or alias of the same name only adds a
 * table, which is safe: more answers end than had to); a write names its target, and a delete
 * also changes every table an ON DELETE CASCADE or SET NULL reaches from it, transitively, as an
 * update does through ON UPDATE ones (the schema has none: a workspace's lock, written on every
 * run, ends no answer about its variables or notification configurations). A write whose target cannot be told writes every table it names; one
 * that names no known table (DDL of a new table, a statement of an unknown kind) writes 'all'.
 */
export class StatementTables {
  private readonly tables: ReadonlySet<string>;
  private readonly ignored: ReadonlySet<string>;
  private readonly cascadesFrom: Record<CascadeTrigger, Map<string, string[]>> = {
    delete: new Map(),
    update: new Map(),
  };
  private readonly remembered = new Map<string, StatementEffect>();

  constructor(tables: Iterable<string>, cascades: readonly Cascade[], ignored: Iterable<string> = []) {
    this.tables = new Set([...tables].map((t) => t.toLowerCase()));
    this.ignored = new Set([...ignored].map((t) => t.toLowerCase()));
    for (const trigger of ['delete', 'update'] as const) {
      this.cascadesFrom[trigger] = reachable(cascades.filter((c) => c.on.includes(trigger)));
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
    if (sql.startsWith(UNSEEN_WRITE)) return NOTHING;
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
    const all = new Set(written);
    for (const trigger of firedBy(keyword, sql)) {
      for (const t of written) for (const c of this.cascadesFrom[trigger].get(t) ?? []) all.add(c);
    }
    return { reads: [], writes: [...all] };
  }

  /**
   * The known tables the statement names, each once, and whether it names an ignored one. Words
   * inside string literals name nothing (`SELECT 'workspaces' AS rel` reads no workspace); a
   * statement with a backslash keeps its literals, since the two dialects end them differently.
   */
  private named(sql: string): { named: string[]; ignored: boolean } {
    const text = sql.includes('\\') ? sql : sql.replace(LITERAL, "''");
    const found = new Set<string>();
    let ignored = false;
    for (const word of text.match(WORD) ?? []) {
      const lower = word.toLowerCase();
      if (this.ignored.has(lower)) ignored = true;
      else if (this.tables.has(lower)) found.add(lower);
    }
    return { named: [...found], ignored };
  }
}

/**
 * Which foreign-key actions a write of this kind may fire on the rows it changes: a plain insert
 * none; an update (an upsert's too) the ON UPDATE ones; a delete, and a replace (which deletes the
 * row it displaces), the ON DELETE ones; a write of any other kind both.
 */
function firedBy(keyword: string, sql: string): readonly CascadeTrigger[] {
  if (keyword === 'update') return ['update'];
  if (keyword === 'delete' || keyword === 'replace' || keyword === 'truncate') return ['delete'];
  if (keyword === 'insert') {
    if (/^\s*insert\s+or\s+replace\b/i.test(sql)) return ['delete'];
    return /\bon\s+(duplicate|conflict)\b/i.test(sql) ? ['update'] : [];
  }
  return ['delete', 'update'];
}

/** For each parent, every table its cascades reach, transitively. */
function reachable(cascades: readonly Cascade[]): Map<string, string[]> {
  const direct = new Map<string, Set<string>>();
  for (const { parent, child } of cascades) {
    const p = parent.toLowerCase();
    if (!direct.has(p)) direct.set(p, new Set());
    direct.get(p)!.add(child.toLowerCase());
  }
  const out = new Map<string, string[]>();
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
    out.set(parent, [...reached]);
  }
  return out;
}

/** The tables and foreign-key cascades of the data source's entities (junction tables included). */
export function statementTablesOf(ds: DataSource, ignored: Iterable<string>): StatementTables {
  const tables = ds.entityMetadatas.map((m) => m.tableName);
  const cascades: Cascade[] = [];
  for (const m of ds.entityMetadatas) {
    for (const fk of m.foreignKeys) {
      const acts = (a: string | undefined) => !!a && a !== 'RESTRICT' && a !== 'NO ACTION';
      const on = [
        ...(acts(fk.onDelete) ? (['delete'] as const) : []),
        ...(acts(fk.onUpdate) ? (['update'] as const) : []),
      ];
      if (on.length) cascades.push({ parent: fk.referencedEntityMetadata.tableName, child: m.tableName, on });
    }
  }
  return new StatementTables(tables, cascades, ignored);
}
