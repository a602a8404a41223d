import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { EntityManager, Repository } from 'typeorm';
import { likeCondition, likePattern } from '../common/database/like';
import { paginate, Page } from '../common/database/paginate';
import { PageParams } from '../common/jsonapi/pagination';
import { TeamWorkspaceEntity } from '../teams/entities/team-workspace.entity';
import { WorkspaceEntity } from '../workspaces/entities/workspace.entity';
import { ProjectEntity } from './entities/project.entity';
import { RowReader } from '../common/database/row-reader';

export interface ProjectListFilter {
  organizationId: string;
  search?: string;
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
    if (filter.teamIds) {
      if (!filter.teamIds.length) qb.andWhere('1 = 0');
      else
        qb.andWhere((sub) => {
          const inner = sub
            .subQuery()
            .select('w.project_id')
            .from(WorkspaceEntity, 'w')
            .innerJoin(TeamWorkspaceEntity, 'tw', 'tw.workspace_id = w.id')
            .where('tw.team_id IN (:...teamIds)', { teamIds: filter.teamIds })
            .getQuery();
          return `p.id IN ${inner}`;
        });
    }
    return paginate(qb, page);
  }

  /** Workspace counts per project, one aggregate query. */
  async workspaceCounts(projectIds: string[]): Promise<Map<string, number>> {
    const counts = new Map<string, number>(projectIds.map((id) => [id, 0]));
    if (!projectIds.length) return counts;
    const rows: { projectId: string; count: string | number }[] = await this.repo.manager
      .createQueryBuilder(WorkspaceEntity, 'w')
      .select('w.project_id', 'projectId')
      .addSelect('COUNT(*)', 'count')
      .where('w.project_id IN (:...projectIds)', { projectIds })
      .groupBy('w.project_id')
      .getRawMany();
    for (const r of rows) counts.set(r.projectId, Number(r.count));
    return counts;
  }

  save(manager: EntityManager, project: ProjectEntity): Promise<ProjectEntity> {
    return manager.getRepository(ProjectEntity).save(project);
  }

  async delete(manager: EntityManager, id: string): Promise<void> {
    await manager.getRepository(ProjectEntity).delete({ id });
  }
}
