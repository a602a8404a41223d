import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { EntityManager, In, Repository } from 'typeorm';
import { projectsGrantedTo } from '../common/auth/grant-subqueries';
import { IdSubquery } from '../common/sql/id-subquery';
import { likeCondition, likePattern } from '../common/sql/like';
import { paginate, Page } from '../common/sql/paginate';
import { PageParams } from '../common/jsonapi/pagination';
import { ProjectEntity } from './entities/project.entity';
import { RowReader } from '../common/sql/row-reader';
import { lockRow } from '../common/sql/transaction';

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

@Injectable()
export class ProjectsRepository {
  private readonly rows: RowReader<ProjectEntity>;

  constructor(@InjectRepository(ProjectEntity) private readonly repo: Repository<ProjectEntity>) {
    this.rows = new RowReader(repo.manager.connection, ProjectEntity);
  }

  findById(id: string): Promise<ProjectEntity | null> {
    return this.repo.findOne({ where: { id } });
  }

  /** Plain SQL (see RowReader): includes of whole pages read these. */
  findByIds(ids: string[]): Promise<ProjectEntity[]> {
    return this.rows.byIds(ids);
  }

  /** The Default Project's id of each organization, in one query. */
  async defaultIdsOf(organizationIds: string[]): Promise<Map<string, string>> {
    const rows = await this.repo.find({
      select: { id: true, organizationId: true },
      where: { organizationId: In(organizationIds), isDefault: true },
    });
    return new Map(rows.map((r) => [r.organizationId, r.id]));
  }

  findDefault(organizationId: string): Promise<ProjectEntity | null> {
    return this.repo.findOne({ where: { organizationId, isDefault: true } });
  }

  list(filter: ProjectListFilter, page: PageParams): Promise<Page<ProjectEntity>> {
    const qb = this.repo
      .createQueryBuilder('p')
      .where('p.organization_id = :org', { org: filter.organizationId })
      .orderBy('p.name', 'ASC')
      .addOrderBy('p.id', 'ASC');
    if (filter.search) qb.andWhere(likeCondition('p.name', 'search'), { search: likePattern(filter.search) });
    if (filter.q) qb.andWhere(likeCondition('p.name', 'q'), { q: likePattern(filter.q) });
    if (filter.names) {
      if (!filter.names.length) qb.andWhere('1 = 0');
      else qb.andWhere('p.name IN (:...names)', { names: filter.names });
    }
    if (filter.tagged) qb.andWhere(filter.tagged.sql.replace(/\{id\}/g, 'p.id'), filter.tagged.parameters);
    if (filter.teamIds) {
      if (!filter.teamIds.length) qb.andWhere('1 = 0');
      else {
        const granted = projectsGrantedTo(filter.teamIds);
        qb.andWhere(`p.id IN ${granted.sql}`, granted.parameters);
      }
    }
    return paginate(qb, page);
  }

  lock(manager: EntityManager, id: string): Promise<boolean> {
    return lockRow(manager, ProjectEntity, id);
  }

  save(manager: EntityManager, project: ProjectEntity): Promise<ProjectEntity> {
    return manager.getRepository(ProjectEntity).save(project);
  }

  async delete(manager: EntityManager, id: string): Promise<void> {
    await manager.getRepository(ProjectEntity).delete({ id });
  }
}
