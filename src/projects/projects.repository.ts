import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { projectsGrantedTo } from '../common/auth/grant-subqueries';
import { IdSubquery } from '../common/sql/id-subquery';
import { likeCondition, likePattern } from '../common/sql/like';
import { Page } from '../common/sql/paginate';
import { PageParams } from '../common/jsonapi/pagination';
import { ProjectEntity } from './entities/project.entity';
import { RowReader } from '../common/sql/row-reader';
import { RowWriter } from '../common/sql/row-writer';
import { expand, paginateRows, SqlConditions } from '../common/sql/sql-page';
import { lockRow } from '../common/sql/transaction';
import { readRows } from '../persistence/pool-reads';

export interface ProjectListFilter {
  organizationId: string;
  search?: string;
  q?: string;
  names?: string[];
  /** A condition on the row written with `{id}` for its id column (tag filters). */
  tagged?: IdSubquery;
  /** Restrict to projects holding a workspace one of these teams can access. */
  teamIds?: string[];
}

/**
 * Plain SQL (see RowReader, RowWriter): includes of whole pages and every workspace create read
 * projects, so the whole file keeps to the hot family.
 */
@Injectable()
export class ProjectsRepository {
  private readonly rows: RowReader<ProjectEntity>;
  private readonly writer: RowWriter<ProjectEntity>;

  constructor(@InjectDataSource() private readonly ds: DataSource) {
    this.rows = new RowReader(ds, ProjectEntity);
    this.writer = new RowWriter(ds, ProjectEntity);
  }

  findById(id: string): Promise<ProjectEntity | null> {
    return this.rows.byId(id);
  }

  /** Includes of whole pages read these. */
  findByIds(ids: string[]): Promise<ProjectEntity[]> {
    return this.rows.byIds(ids);
  }

  /** The Default Project's id of each organization, in one query. */
  async defaultIdsOf(organizationIds: string[]): Promise<Map<string, string>> {
    if (!organizationIds.length) return new Map();
    const [sql, params] = expand(
      this.ds,
      'SELECT p.id, p.organization_id FROM projects p WHERE p.organization_id IN (:...orgs) AND p.is_default = 1',
      { orgs: [...new Set(organizationIds)] },
    );
    const rows = await readRows<{ id: string; organization_id: string }>(this.ds, sql, params);
    return new Map(rows.map((r) => [r.organization_id, r.id]));
  }

  async findDefault(organizationId: string): Promise<ProjectEntity | null> {
    const { rows } = this;
    const [project] = await rows.many(
      `SELECT ${rows.select('p')} FROM projects p WHERE p.organization_id = ? AND p.is_default = 1 LIMIT 1`,
      [organizationId],
      'p',
    );
    return project ?? null;
  }

  list(filter: ProjectListFilter, page: PageParams): Promise<Page<ProjectEntity>> {
    const where = new SqlConditions().and('p.organization_id = :org', { org: filter.organizationId });
    if (filter.search) where.and(likeCondition('p.name', 'search'), { search: likePattern(filter.search) });
    if (filter.q) where.and(likeCondition('p.name', 'q'), { q: likePattern(filter.q) });
    if (filter.names) where.in('p.name', 'names', filter.names);
    if (filter.tagged) where.and(filter.tagged.sql.replace(/\{id\}/g, 'p.id'), filter.tagged.parameters);
    if (filter.teamIds) {
      if (!filter.teamIds.length) where.and('1 = 0');
      else {
        const granted = projectsGrantedTo(filter.teamIds);
        where.and(`p.id IN ${granted.sql}`, granted.parameters);
      }
    }
    return paginateRows(
      this.rows,
      { from: 'projects p', alias: 'p', where, orderBy: 'p.name ASC, p.id ASC' },
      page,
    );
  }

  lock(manager: EntityManager, id: string): Promise<boolean> {
    return lockRow(manager, ProjectEntity, id);
  }

  /** Inserts a project the service filled in completely; a taken name throws a unique violation. */
  async insert(manager: EntityManager, project: ProjectEntity): Promise<void> {
    await this.writer.insert(project, manager);
  }

  /** Writes the project's name, description and update time; a taken name throws a unique violation. */
  async update(manager: EntityManager, project: ProjectEntity): Promise<void> {
    const { name, description, updatedAt } = project;
    await this.writer.update({ name, description, updatedAt }, { id: project.id }, manager);
  }

  async delete(manager: EntityManager, id: string): Promise<void> {
    await this.writer.deleteById(id, manager);
  }
}
