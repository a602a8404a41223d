import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { likeCondition, likePattern } from '../common/sql/like';
import { RowReader } from '../common/sql/row-reader';
import { RowWriter } from '../common/sql/row-writer';
import { expand, paginateRows, paginateRowsCounted, SqlConditions } from '../common/sql/sql-page';
import { writeWith } from '../common/sql/transaction';
import { Page } from '../common/sql/paginate';
import { PageParams } from '../common/jsonapi/pagination';
import { PolicyKind } from '../policies/policy-kinds';
import { PolicySetPolicyEntity } from './entities/policy-set-policy.entity';
import { PolicySetProjectEntity } from './entities/policy-set-project.entity';
import { PolicySetWorkspaceExclusionEntity } from './entities/policy-set-workspace-exclusion.entity';
import { PolicySetVersionEntity } from './entities/policy-set-version.entity';
import { PolicySetWorkspaceEntity } from './entities/policy-set-workspace.entity';
import { PolicySetEntity } from './entities/policy-set.entity';
import { readRows, readRowsWith } from '../persistence/pool-reads';

/** Statement texts of `relations` remembered by shape (sets, versioned sets); pages hold at most 100. */
const MAX_REMEMBERED_SHAPES = 200;

/** The four to-many relationships of a policy set, each backed by its own membership table. */
export type MemberRelation = 'policies' | 'projects' | 'workspaces' | 'workspace-exclusions';

const MEMBER_TABLES = {
  policies: { entity: PolicySetPolicyEntity, table: 'policy_set_policies', column: 'policy_id' },
  projects: { entity: PolicySetProjectEntity, table: 'policy_set_projects', column: 'project_id' },
  workspaces: { entity: PolicySetWorkspaceEntity, table: 'policy_set_workspaces', column: 'workspace_id' },
  'workspace-exclusions': {
    entity: PolicySetWorkspaceExclusionEntity,
    table: 'policy_set_workspace_exclusions',
    column: 'workspace_id',
  },
} as const;

const MEMBER_RELATIONS = Object.keys(MEMBER_TABLES) as MemberRelation[];

/** What an update may change: everything but the kind, the organization, the creation time and the versioning. */
const EDITABLE = [
  'name',
  'description',
  'global',
  'overridable',
  'agentEnabled',
  'policyToolVersion',
  'policiesPath',
  'vcsIdentifier',
  'vcsBranch',
  'vcsOauthTokenId',
  'vcsAppInstallationId',
  'vcsIngressSubmodules',
  'updatedAt',
] as const satisfies readonly (keyof PolicySetEntity)[];

interface MemberRow {
  rel: string;
  set_id: string;
  member_id: string;
  /** When the member was added, as fixed-width text (which sorts as the times do). */
  at: string;
}

/** Oldest first; members added in the same instant by id. */
function byAddition(a: MemberRow, b: MemberRow): number {
  if (a.at !== b.at) return a.at < b.at ? -1 : 1;
  return a.member_id < b.member_id ? -1 : a.member_id > b.member_id ? 1 : 0;
}

/** Member ids per relationship and set, and each set's newest (any status) and current (ready) version. */
export interface SetRelations {
  members: Record<MemberRelation, Map<string, string[]>>;
  newest: Map<string, PolicySetVersionEntity>;
  current: Map<string, PolicySetVersionEntity>;
}

export interface PolicySetListFilter {
  organizationId: string;
  search?: string;
  kind?: PolicyKind;
  versioned?: boolean;
}

/**
 * Plain SQL (see RowReader, RowWriter): every policy-set route, the includes of whole pages and
 * each policy check of a run read sets here, so the whole file keeps to the hot family.
 */
@Injectable()
export class PolicySetsRepository {
  private readonly rows: RowReader<PolicySetEntity>;
  private readonly versionRows: RowReader<PolicySetVersionEntity>;
  private readonly writer: RowWriter<PolicySetEntity>;
  private readonly relationsSqlByShape = new Map<string, string>();
  private readonly sqlite: boolean;

  constructor(@InjectDataSource() private readonly ds: DataSource) {
    this.rows = new RowReader(ds, PolicySetEntity);
    this.versionRows = new RowReader(ds, PolicySetVersionEntity);
    this.writer = new RowWriter(ds, PolicySetEntity);
    this.sqlite = ds.options.type === 'better-sqlite3';
  }

  /** The sets each policy belongs to, one query (registered with the policies module). */
  async setIdsOfPolicies(policyIds: string[]): Promise<Map<string, string[]>> {
    const out = new Map<string, string[]>(policyIds.map((id) => [id, []]));
    if (!policyIds.length) return out;
    const [sql, params] = expand(
      this.ds,
      `SELECT m.policy_id, m.policy_set_id FROM policy_set_policies m
        WHERE m.policy_id IN (:...policyIds) ORDER BY m.created_at ASC, m.policy_set_id ASC`,
      { policyIds },
    );
    const rows = await readRows<{ policy_id: string; policy_set_id: string }>(this.ds, sql, params);
    for (const r of rows) out.get(r.policy_id)?.push(r.policy_set_id);
    return out;
  }

  /**
   * The set's row, locked for the rest of the transaction, in one statement (SQLite's writers take
   * turns anyway, so there it is a plain read); null when it does not exist.
   */
  findLocked(manager: EntityManager, id: string): Promise<PolicySetEntity | null> {
    return this.rows.lockedById(id, manager);
  }

  /** Every policy-set route starts here; in a transaction, through its manager. */
  findById(id: string, manager?: EntityManager): Promise<PolicySetEntity | null> {
    return this.rows.byId(id, manager);
  }

  /** framework_b sets pinned to each of `versions` (lower-cased keys), one aggregate query. */
  async countByPolicyToolVersion(
    versions: string[],
    manager: EntityManager = this.ds.manager,
  ): Promise<Map<string, number>> {
    const counts = new Map<string, number>();
    if (!versions.length) return counts;
    const [sql, params] = expand(
      this.ds,
      `SELECT LOWER(s.policy_tool_version) AS tool_version, COUNT(*) AS n FROM policy_sets s
        WHERE s.kind = 'framework_b' AND LOWER(s.policy_tool_version) IN (:...versions)
        GROUP BY LOWER(s.policy_tool_version)`,
      { versions: versions.map((v) => v.toLowerCase()) },
    );
    const rows = await readRowsWith<{ tool_version: string; n: unknown }>(manager, sql, params);
    for (const r of rows) counts.set(r.tool_version, Number(r.n));
    return counts;
  }

  /** Includes of whole pages read these. */
  findByIds(ids: string[]): Promise<PolicySetEntity[]> {
    return this.rows.byIds(ids);
  }

  list(filter: PolicySetListFilter, page: PageParams): Promise<Page<PolicySetEntity>> {
    const where = new SqlConditions().and('s.organization_id = :org', { org: filter.organizationId });
    if (filter.search) where.and(likeCondition('s.name', 'search'), { search: likePattern(filter.search) });
    if (filter.kind) where.and('s.kind = :kind', { kind: filter.kind });
    if (filter.versioned === true) where.and('s.vcs_identifier IS NOT NULL OR s.upload_versioned = 1');
    if (filter.versioned === false) where.and('s.vcs_identifier IS NULL AND s.upload_versioned = 0');
    // Page and count apart: a window count over an organization's sets makes MySQL materialize
    // and sort all of them (4.3 ms for 500 sets against 1.6 + 0.5 ms for the two queries).
    return paginateRows(
      this.rows,
      { from: 'policy_sets s', alias: 's', where, orderBy: 's.name ASC, s.id ASC' },
      page,
    );
  }

  /** Sets enforced on a workspace: global or attached to it or its project, and not excluding it. */
  listEffective(
    organizationId: string,
    workspaceId: string,
    projectId: string,
    page: PageParams,
  ): Promise<Page<PolicySetEntity>> {
    const where = new SqlConditions()
      .and('s.organization_id = :organizationId', { organizationId })
      .and(
        `s.global = 1
          OR s.id IN (SELECT w.policy_set_id FROM policy_set_workspaces w WHERE w.workspace_id = :workspaceId)
          OR s.id IN (SELECT p.policy_set_id FROM policy_set_projects p WHERE p.project_id = :projectId)`,
        { workspaceId, projectId },
      )
      .and(
        's.id NOT IN (SELECT x.policy_set_id FROM policy_set_workspace_exclusions x WHERE x.workspace_id = :workspaceId)',
      );
    return paginateRowsCounted(
      this.rows,
      { from: 'policy_sets s', alias: 's', where, orderBy: 's.name ASC, s.id ASC' },
      page,
    );
  }

  /**
   * Every set enforced on a workspace, as `listEffective` decides, read whole in the caller's
   * transaction (each policy check of a run asks).
   */
  allEffective(
    manager: EntityManager,
    organizationId: string,
    workspaceId: string,
    projectId: string,
  ): Promise<PolicySetEntity[]> {
    const { rows } = this;
    return rows.many(
      `SELECT ${rows.select('s')} FROM ${rows.table} s
        WHERE s.organization_id = ?
          AND (s.global = 1
               OR s.id IN (SELECT w.policy_set_id FROM policy_set_workspaces w WHERE w.workspace_id = ?)
               OR s.id IN (SELECT p.policy_set_id FROM policy_set_projects p WHERE p.project_id = ?))
          AND s.id NOT IN (SELECT x.policy_set_id FROM policy_set_workspace_exclusions x WHERE x.workspace_id = ?)
        ORDER BY s.name ASC, s.id ASC`,
      [organizationId, workspaceId, projectId, workspaceId],
      's',
      manager,
    );
  }

  async countInOrganization(manager: EntityManager, organizationId: string): Promise<number> {
    const [row] = await readRowsWith<{ n: unknown }>(
      manager,
      'SELECT COUNT(*) AS n FROM policy_sets s WHERE s.organization_id = ?',
      [organizationId],
    );
    return Number(row?.n ?? 0);
  }

  /** Inserts a set the service filled in completely; a taken name throws a unique violation. */
  async insert(manager: EntityManager, set: PolicySetEntity): Promise<void> {
    await this.writer.insert(set, manager);
  }

  /** Writes what an update may change (EDITABLE); a taken name throws a unique violation. */
  async update(manager: EntityManager, set: PolicySetEntity): Promise<void> {
    const changes = Object.fromEntries(EDITABLE.map((key) => [key, set[key]])) as Partial<PolicySetEntity>;
    await this.writer.update(changes, { id: set.id }, manager);
  }

  /** From the set's first uploaded version on, it takes versions instead of policies, for good. */
  async markUploadVersioned(manager: EntityManager, id: string): Promise<void> {
    await this.writer.update({ uploadVersioned: true }, { id }, manager);
  }

  async delete(manager: EntityManager, id: string): Promise<void> {
    await this.writer.deleteById(id, manager);
  }

  /**
   * Everything the wire shape of many sets needs besides their rows, in one round trip: the
   * members of the four relationships (in the order they were added) and each set's newest
   * version and newest ready version, whole (the `include`s of those two need nothing more, so a
   * shown set costs two queries, not three).
   */
  async relations(
    sets: Pick<PolicySetEntity, 'id' | 'uploadVersioned'>[],
    manager: EntityManager = this.ds.manager,
  ): Promise<SetRelations> {
    const setIds = sets.map((s) => s.id);
    // Only upload-versioned sets have versions (the first version turns the flag on for good).
    const versioned = sets.filter((s) => s.uploadVersioned).map((s) => s.id);
    const out: SetRelations = {
      members: Object.fromEntries(
        MEMBER_RELATIONS.map((r) => [r, new Map(setIds.map((id) => [id, [] as string[]]))]),
      ) as Record<MemberRelation, Map<string, string[]>>,
      newest: new Map(),
      current: new Map(),
    };
    if (!setIds.length) return out;
    const params = [
      ...MEMBER_RELATIONS.flatMap(() => setIds),
      ...(versioned.length ? [...versioned, ...versioned] : []),
    ];
    const rows = await readRowsWith<MemberRow & Record<string, unknown>>(
      manager,
      this.relationsSql(setIds.length, versioned.length),
      params,
    );
    const grouped = new Map<string[], MemberRow[]>();
    for (const r of rows) {
      if (r.rel === 'newest') out.newest.set(r.set_id, this.versionRows.hydrate(r, 'v'));
      else if (r.rel === 'current') out.current.set(r.set_id, this.versionRows.hydrate(r, 'v'));
      else {
        const ids = out.members[r.rel as MemberRelation].get(r.set_id);
        if (!ids) continue;
        const group = grouped.get(ids);
        if (group) group.push(r);
        else grouped.set(ids, [r]);
      }
    }
    // Ordered here rather than by the database (an ORDER BY over a UNION makes it build and sort a
    // temporary table on every request), one relationship of one set at a time.
    for (const [ids, group] of grouped) {
      group.sort(byAddition);
      for (const r of group) ids.push(r.member_id);
    }
    return out;
  }

  /**
   * The statement `relations` runs for `sets` sets of which `versioned` have versions. The same
   * shape gives the same text, built once: a show or a page of the usual size reuses it, and the
   * statement tracking finds the same string again (its hash already computed).
   */
  private relationsSql(sets: number, versioned: number): string {
    const key = `${sets}/${versioned}`;
    let sql = this.relationsSqlByShape.get(key);
    if (sql !== undefined) return sql;
    const marks = Array(sets).fill('?').join(', ');
    // Version rows ride along in columns of their own, NULL in the member parts of the UNION.
    const versionNulls = versioned ? `, ${this.versionRows.nulls('v')}` : '';
    const members = MEMBER_RELATIONS.map(
      (relation) =>
        `SELECT '${relation}' AS rel, m.policy_set_id AS set_id, m.${MEMBER_TABLES[relation].column} AS member_id,
                CAST(m.created_at AS CHAR) AS at${versionNulls}
           FROM ${MEMBER_TABLES[relation].table} m WHERE m.policy_set_id IN (${marks})`,
    );
    const versionMarks = Array(versioned).fill('?').join(', ');
    const newest = (rel: 'newest' | 'current') => {
      const ready = (alias: string) => (rel === 'current' ? `AND ${alias}.status = 'ready'` : '');
      return `SELECT '${rel}' AS rel, v.policy_set_id AS set_id, v.id AS member_id, '' AS at,
                     ${this.versionRows.select('v')}
                FROM policy_set_versions v
               WHERE v.policy_set_id IN (${versionMarks}) ${ready('v')}
                 AND v.created_at = (SELECT MAX(v2.created_at) FROM policy_set_versions v2
                                      WHERE v2.policy_set_id = v.policy_set_id ${ready('v2')})`;
    };
    sql = (versioned ? [...members, newest('newest'), newest('current')] : members)
      .join(' UNION ALL ')
      .replace(/\s+/g, ' '); // the indentation above is for reading; the server parses fewer bytes
    if (this.relationsSqlByShape.size >= MAX_REMEMBERED_SHAPES) this.relationsSqlByShape.clear();
    this.relationsSqlByShape.set(key, sql);
    return sql;
  }

  async countMembers(manager: EntityManager, relation: MemberRelation, setId: string): Promise<number> {
    const [row] = await readRowsWith<{ n: unknown }>(
      manager,
      `SELECT COUNT(*) AS n FROM ${MEMBER_TABLES[relation].table} m WHERE m.policy_set_id = ?`,
      [setId],
    );
    return Number(row?.n ?? 0);
  }

  /** Adds members that are not there yet; present ones are left as they are. */
  async addMembers(
    manager: EntityManager,
    relation: MemberRelation,
    setId: string,
    memberIds: string[],
    at: Date,
  ): Promise<void> {
    if (!memberIds.length) return;
    const { entity, table, column } = MEMBER_TABLES[relation];
    // The time as the driver stores this column, so that it sorts with the rows written before.
    const createdAt = this.ds.getMetadata(entity).findColumnWithPropertyName('createdAt')!;
    const stamp: unknown = this.ds.driver.preparePersistentValue(at, createdAt);
    // One statement: a member already present keeps its row (and its created-at, the order of the
    // relationship) through a no-op update of the key; a member that is gone still fails the
    // foreign key, as it would without the conflict clause.
    const conflict = this.sqlite
      ? `ON CONFLICT (policy_set_id, ${column}) DO UPDATE SET policy_set_id = excluded.policy_set_id`
      : 'ON DUPLICATE KEY UPDATE policy_set_id = VALUES(policy_set_id)';
    await writeWith(
      manager,
      `INSERT INTO ${table} (policy_set_id, ${column}, created_at)
       VALUES ${memberIds.map(() => '(?, ?, ?)').join(', ')} ${conflict}`,
      memberIds.flatMap((id) => [setId, id, stamp]),
    );
  }

  async removeMembers(
    manager: EntityManager,
    relation: MemberRelation,
    setId: string,
    memberIds: string[],
  ): Promise<void> {
    if (!memberIds.length) return;
    const { table, column } = MEMBER_TABLES[relation];
    const marks = memberIds.map(() => '?').join(', ');
    await writeWith(manager, `DELETE FROM ${table} WHERE policy_set_id = ? AND ${column} IN (${marks})`, [
      setId,
      ...memberIds,
    ]);
  }

  async replaceMembers(
    manager: EntityManager,
    relation: MemberRelation,
    setId: string,
    memberIds: string[],
    at: Date,
  ): Promise<void> {
    await writeWith(manager, `DELETE FROM ${MEMBER_TABLES[relation].table} WHERE policy_set_id = ?`, [setId]);
    await this.addMembers(manager, relation, setId, memberIds, at);
  }
}
