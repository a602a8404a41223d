import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { EntityManager, In, Repository } from 'typeorm';
import { likeCondition, likePattern } from '../common/database/like';
import { paginate, Page } from '../common/database/paginate';
import { PageParams } from '../common/jsonapi/pagination';
import { TeamWorkspaceEntity } from '../teams/entities/team-workspace.entity';
import { WorkspaceEntity } from './entities/workspace.entity';

export interface WorkspaceListFilter {
  organizationId: string;
  search?: string;
  projectId?: string;
  /** Restrict to workspaces these teams were given access to. */
  teamIds?: string[];
}

@Injectable()
export class WorkspacesRepository {
  constructor(@InjectRepository(WorkspaceEntity) private readonly repo: Repository<WorkspaceEntity>) {}

  findById(id: string): Promise<WorkspaceEntity | null> {
    return this.repo.findOne({ where: { id } });
  }

  /** The workspace with exactly this name (MySQL alone would also match other letter cases). */
  async findByName(organizationId: string, name: string): Promise<WorkspaceEntity | null> {
    const ws = await this.repo.findOne({ where: { organizationId, name } });
    return ws?.name === name ? ws : null;
  }

  findByIds(ids: string[]): Promise<WorkspaceEntity[]> {
    return ids.length ? this.repo.find({ where: { id: In(ids) } }) : Promise.resolve([]);
  }

  list(filter: WorkspaceListFilter, page: PageParams): Promise<Page<WorkspaceEntity>> {
    const qb = this.repo
      .createQueryBuilder('w')
      .where('w.organization_id = :org', { org: filter.organizationId })
      .orderBy('w.name', 'ASC');
    if (filter.search) qb.andWhere(likeCondition('w.name', 'search'), { search: likePattern(filter.search) });
    if (filter.projectId) qb.andWhere('w.project_id = :projectId', { projectId: filter.projectId });
    if (filter.teamIds) {
      if (!filter.teamIds.length) qb.andWhere('1 = 0');
      else
        qb.andWhere((sub) => {
          const inner = sub
            .subQuery()
            .select('tw.workspace_id')
            .from(TeamWorkspaceEntity, 'tw')
            .where('tw.team_id IN (:...teamIds)', { teamIds: filter.teamIds })
            .getQuery();
          return `w.id IN ${inner}`;
        });
    }
    return paginate(qb, page);
  }

  save(manager: EntityManager, ws: WorkspaceEntity): Promise<WorkspaceEntity> {
    return manager.getRepository(WorkspaceEntity).save(ws);
  }

  async delete(manager: EntityManager, id: string): Promise<void> {
    await manager.getRepository(WorkspaceEntity).delete({ id });
  }

  async deleteAllInOrganization(manager: EntityManager, organizationId: string): Promise<void> {
    await manager.getRepository(WorkspaceEntity).delete({ organizationId });
  }
}
