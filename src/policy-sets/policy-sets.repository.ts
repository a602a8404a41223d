import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { EntityManager, In, Repository } from 'typeorm';
import { likeCondition, likePattern } from '../common/sql/like';
import { RowReader } from '../common/sql/row-reader';
import { withRowLock } from '../common/sql/transaction';
import { Page, paginate, paginateCounted } from '../common/sql/paginate';
import { PageParams } from '../common/jsonapi/pagination';
import { PolicyKind } from '../policies/policy-kinds';
import { PolicySetPolicyEntity } from './entities/policy-set-policy.entity';
import { PolicySetProjectEntity } from './entities/policy-set-project.entity';
import { PolicySetWorkspaceExclusionEntity } from './entities/policy-set-workspace-exclusion.entity';
import { PolicySetVersionEntity } from './entities/policy-set-version.entity';
import { PolicySetWorkspaceEntity } from './entities/policy-set-workspace.entity';
import { PolicySetEntity } from './entities/policy-set.entity';
import { readRowsWith } from '../persistence/pool-reads';

/** Statement texts of `relations` remembered by shape (sets, versioned sets); pages hold at most 100. */
const MAX_REMEMBERED_SHAPES = 200;

/** The four to-many relationships of a policy set, each backed by its own membership table. */
export type MemberRelation = 'policies' | 'projects' | 'workspaces' | 'workspace-exclusions';

const MEMBER_TABLES = {
  policies: { entity: PolicySetPolicyEntity, column: 'policy_id', property: 'policyId' },
  projects: { entity: PolicySetProjectEntity, column: 'project_id', property: 'projectId' },
  workspaces: { entity: PolicySetWorkspaceEntity, column: 'workspace_id', property: 'workspaceId' },
  'workspace-exclusions': {
    entity: PolicySetWorkspaceExclusionEntity,
    column: 'workspace_id',
    property: 'workspaceId',
  },
} as const;

const MEMBER_RELATIONS = Object.keys(MEMBER_TABLES) as MemberRelation[];

const MEMBER_TABLE_NAMES: Record<MemberRelation, string> = {
  policies: 'policy_set_policies',
  projects: 'policy_set_projects',
  workspaces: 'policy_set_workspaces',
  'workspace-exclusions': 'policy_set_workspace_exclusions',
};

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

@Injectable()
export class PolicySetsRepository {
  private readonly rows: RowReader<PolicySetEntity>;
  private readonly versionRows: RowReader<PolicySetVersionEntity>;
  private readonly relationsSqlByShape = new Map<string, string>();

  constructor(@InjectRepository(PolicySetEntity) private readonly repo: Repository<PolicySetEntity>) {
    this.rows = new RowReader(repo.manager.connection, PolicySetEntity);
    this.versionRows = new RowReader(repo.manager.connection, PolicySetVersionEntity);
  }

  /** Outside a transaction, plain SQL: every policy-set route starts here (see RowReader). */
  /** The sets each policy belongs to, one query (registered with the policies module). */
  async setIdsOfPolicies(policyIds: string[]): Promise<Map<string, string[]>> {
    const out = new Map<string, string[]>(policyIds.map((id) => [id, []]));
    if (!policyIds.length) return out;
    const rows = await this.repo.manager.getRepository(PolicySetPolicyEntity).find({
      select: { policyId: true, policySetId: true },
      where: { policyId: In(policyIds) },
      order: { createdAt: 'ASC', policySetId: 'ASC' },
    });
    for (const r of rows) out.get(r.policyId)?.push(r.policySetId);
    return out;
  }

  /**
   * The set's row, locked for the rest of the transaction, in one statement (SQLite's writers take
   * turns anyway, so there it is a plain read); null when it does not exist.
   */
  findLocked(manager: EntityManager, id: string): Promise<PolicySetEntity | null> {
    const qb = manager.getRepository(PolicySetEntity).createQueryBuilder('s').where('s.id = :id', { id });
    return withRowLock(qb).getOne();
  }

  async findById(id: string, manager?: EntityManager): Promise<PolicySetEntity | null> {
    if (manager) return manager.getRepository(PolicySetEntity).findOne({ where: { id } });
    return this.rows.byId(id);
  }

  /** framework_b sets pinned to each of `versions` (lower-cased keys), one aggregate query. */
  async countByPolicyToolVersion(
    versions: string[],
    manager = this.repo.manager,
  ): Promise<Map<string, number>> {
    const counts = new Map<string, number>();
    if (!versions.length) return counts;
    const rows: { version: string; count: string | number }[] = await manager
      .getRepository(PolicySetEntity)
      .createQueryBuilder('s')
      .select('LOWER(s.policy_tool_version)', 'version')
      .addSelect('COUNT(*)', 'count')
      .where("s.kind = 'framework_b'")
      .andWhere('LOWER(s.policy_tool_version) IN (:...versions)', {
        versions: versions.map((v) => v.toLowerCase()),
      })
      .groupBy('LOWER(s.policy_tool_version)')
      .getRawMany();
    for (const r of rows) counts.set(r.version, Number(r.count));
    return counts;
  }

  /** Plain SQL (see RowReader): includes of whole pages read these. */
  findByIds(ids: string[]): Promise<PolicySetEntity[]> {
    return this.rows.byIds(ids);
  }

  list(filter: PolicySetListFilter, page: PageParams): Promise<Page<PolicySetEntity>> {
    const qb = this.repo
      .createQueryBuilder('s')
      .where('s.organization_id = :org', { org: filter.organizationId })
      .orderBy('s.name', 'ASC')
      .addOrderBy('s.id', 'ASC');
    if (filter.search) qb.andWhere(likeCondition('s.name', 'search'), { search: likePattern(filter.search) });
    if (filter.kind) qb.andWhere('s.kind = :kind', { kind: filter.kind });
    if (filter.versioned === true) qb.andWhere('(s.vcs_identifier IS NOT NULL OR s.upload_versioned = 1)');
    if (filter.versioned === false) qb.andWhere('s.vcs_identifier IS NULL AND s.upload_versioned = 0');
    // Page and count apart: a window count over an organization's sets makes MySQL materialize
    // and sort all of them (4.3 ms for 500 sets against 1.6 + 0.5 ms for the two queries).
    return paginate(qb, page);
  }

  /** Sets enforced on a workspace: global or attached to it or its project, and not excluding it. */
  listEffective(
    organizationId: string,
    workspaceId: string,
    projectId: string,
    page: PageParams,
  ): Promise<Page<PolicySetEntity>> {
    const qb = this.repo
      .createQueryBuilder('s')
      .where('s.organization_id = :organizationId', { organizationId })
      .andWhere(
        `(s.global = 1
          OR s.id IN (SELECT w.policy_set_id FROM policy_set_workspaces w WHERE w.workspace_id = :workspaceId)
          OR s.id IN (SELECT p.policy_set_id FROM policy_set_projects p WHERE p.project_id = :projectId))`,
        { workspaceId, projectId },
      )
      .andWhere(
        's.id NOT IN (SELECT x.policy_set_id FROM policy_set_workspace_exclusions x WHERE x.workspace_id = :workspaceId)',
      )
      .orderBy('s.name', 'ASC')
      .addOrderBy('s.id', 'ASC');
    return paginateCounted(qb, page);
  }

  /**
   * Every set enforced on a workspace, as `listEffective` decides, read whole in the caller's
   * transaction (each policy check of a run asks; plain SQL, see RowReader).
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

  countInOrganization(manager: EntityManager, organizationId: string): Promise<number> {
    return manager.getRepository(PolicySetEntity).count({ where: { organizationId } });
  }

  save(manager: EntityManager, set: PolicySetEntity): Promise<PolicySetEntity> {
    return manager.getRepository(PolicySetEntity).save(set);
  }

  async delete(manager: EntityManager, id: string): Promise<void> {
    await manager.getRepository(PolicySetEntity).delete({ id });
  }

  /**
   * Everything the wire shape of many sets needs besides their rows, in one round trip: the
   * members of the four relationships (in the order they were added) and each set's newest
   * version and newest ready version, whole (the `include`s of those two need nothing more, so a
   * shown set costs two queries, not three).
   */
  async relations(
    sets: Pick<PolicySetEntity, 'id' | 'uploadVersioned'>[],
    manager: EntityManager = this.repo.manager,
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
           FROM ${MEMBER_TABLE_NAMES[relation]} m WHERE m.policy_set_id IN (${marks})`,
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
    const { entity } = MEMBER_TABLES[relation];
    return manager.createQueryBuilder(entity, 'm').where('m.policy_set_id = :setId', { setId }).getCount();
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
    const { entity, column, property } = MEMBER_TABLES[relation];
    // One statement: a member already present keeps its row (and its created-at, the order of the
    // relationship) through a no-op update of the key; a member that is gone still fails the
    // foreign key, as it would without the conflict clause.
    await manager
      .createQueryBuilder()
      .insert()
      .into(entity)
      .values(memberIds.map((id) => ({ policySetId: setId, [property]: id, createdAt: at })))
      .orUpdate(['policy_set_id'], ['policy_set_id', column])
      .updateEntity(false)
      .execute();
  }

  async removeMembers(
    manager: EntityManager,
    relation: MemberRelation,
    setId: string,
    memberIds: string[],
  ): Promise<void> {
    if (!memberIds.length) return;
    const { entity, column } = MEMBER_TABLES[relation];
    await manager
      .createQueryBuilder()
      .delete()
      .from(entity)
      .where('policy_set_id = :setId', { setId })
      .andWhere(`${column} IN (:...memberIds)`, { memberIds })
      .execute();
  }

  async replaceMembers(
    manager: EntityManager,
    relation: MemberRelation,
    setId: string,
    memberIds: string[],
    at: Date,
  ): Promise<void> {
    const { entity } = MEMBER_TABLES[relation];
    await manager
      .createQueryBuilder()
      .delete()
      .from(entity)
      .where('policy_set_id = :setId', { setId })
      .execute();
    await this.addMembers(manager, relation, setId, memberIds, at);
  }
}
