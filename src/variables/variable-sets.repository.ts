import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { Brackets, EntityManager, In, Repository, SelectQueryBuilder } from 'typeorm';
import { PageParams } from '../common/jsonapi/pagination';
import { likeCondition, likePattern } from '../common/sql/like';
import { Page, paginate } from '../common/sql/paginate';
import { lockRow } from '../common/sql/transaction';
import { VariableSetEntity } from './entities/variable-set.entity';
import { VariableEntity } from './entities/variable.entity';
import { VarsetProjectEntity, VarsetWorkspaceEntity } from './entities/varset-attachment.entity';

/** Which sets a list shows: an organization's (optionally by name), or those reaching a workspace or project. */
export type VarsetScope =
  | { organizationId: string; q?: string }
  | { workspace: { id: string; projectId: string; organizationId: string } }
  | { project: { id: string; organizationId: string } };

/** A workspace, as far as which sets reach it. */
export type WorkspaceRef = { id: string; projectId: string; organizationId: string };

export interface Attachments {
  workspaceIds: string[];
  projectIds: string[];
}

@Injectable()
export class VariableSetsRepository {
  constructor(
    @InjectRepository(VariableSetEntity) private readonly repo: Repository<VariableSetEntity>,
    @InjectRepository(VarsetWorkspaceEntity) private readonly workspaces: Repository<VarsetWorkspaceEntity>,
    @InjectRepository(VarsetProjectEntity) private readonly projects: Repository<VarsetProjectEntity>,
  ) {}

  findById(id: string, manager?: EntityManager): Promise<VariableSetEntity | null> {
    return (manager ? manager.getRepository(VariableSetEntity) : this.repo).findOne({ where: { id } });
  }

  /** A page of sets in name order. */
  list(scope: VarsetScope, page: PageParams): Promise<Page<VariableSetEntity>> {
    return paginate(this.scoped(scope).orderBy('s.name', 'ASC').addOrderBy('s.id', 'ASC'), page);
  }

  private scoped(scope: VarsetScope, manager?: EntityManager): SelectQueryBuilder<VariableSetEntity> {
    const qb = (manager ? manager.getRepository(VariableSetEntity) : this.repo).createQueryBuilder('s');
    if ('organizationId' in scope) {
      qb.where('s.organization_id = :org', { org: scope.organizationId });
      if (scope.q) qb.andWhere(likeCondition('s.name', 'q'), { q: likePattern(scope.q) });
      return qb;
    }
    const onProject = 'SELECT vp.varset_id FROM varset_projects vp WHERE vp.project_id = :prj';
    if ('workspace' in scope) {
      const ws = scope.workspace;
      return qb.where('s.organization_id = :org', { org: ws.organizationId }).andWhere(
        new Brackets((or) =>
          or
            .where('s.global = 1')
            .orWhere(`s.id IN (SELECT vw.varset_id FROM varset_workspaces vw WHERE vw.workspace_id = :ws)`, {
              ws: ws.id,
            })
            .orWhere(`s.id IN (${onProject})`, { prj: ws.projectId }),
        ),
      );
    }
    return qb
      .where('s.organization_id = :org', { org: scope.project.organizationId })
      .andWhere(
        new Brackets((or) =>
          or.where('s.global = 1').orWhere(`s.id IN (${onProject})`, { prj: scope.project.id }),
        ),
      );
  }

  /**
   * Key and category of every sensitive variable of the sets reaching each of these workspaces (no
   * values): three queries for any number of workspaces. Every workspace given is a key.
   */
  async sensitiveReaching(
    workspaces: readonly WorkspaceRef[],
  ): Promise<Map<string, { key: string; category: string; sensitive: true }[]>> {
    const out = new Map(
      workspaces.map((ws) => [ws.id, [] as { key: string; category: string; sensitive: true }[]]),
    );
    if (!workspaces.length) return out;
    const [onWorkspace, onProject] = await Promise.all([
      this.workspaces.find({ where: { workspaceId: In(workspaces.map((w) => w.id)) } }),
      this.projects.find({ where: { projectId: In([...new Set(workspaces.map((w) => w.projectId))]) } }),
    ]);
    const attached = [...new Set([...onWorkspace, ...onProject].map((a) => a.varsetId))];
    const qb = this.repo.manager
      .createQueryBuilder(VariableEntity, 'v')
      .innerJoin(VariableSetEntity, 's', 's.id = v.varset_id')
      .select('v.varset_id', 'varsetId')
      .addSelect('s.global', 'global')
      .addSelect('s.organization_id', 'organizationId')
      .addSelect('v.key', 'key')
      .addSelect('v.category', 'category')
      .where('v.sensitive = 1')
      .andWhere(
        new Brackets((or) => {
          or.where('(s.global = 1 AND s.organization_id IN (:...orgs))', {
            orgs: [...new Set(workspaces.map((w) => w.organizationId))],
          });
          if (attached.length) or.orWhere('s.id IN (:...attached)', { attached });
        }),
      );
    const rows: {
      varsetId: string;
      global: unknown;
      organizationId: string;
      key: string;
      category: string;
    }[] = await qb.getRawMany();
    for (const ws of workspaces) {
      const reaching = new Set([
        ...onWorkspace.filter((a) => a.workspaceId === ws.id).map((a) => a.varsetId),
        ...onProject.filter((a) => a.projectId === ws.projectId).map((a) => a.varsetId),
      ]);
      const isGlobal = (r: (typeof rows)[number]) =>
        (r.global === true || Number(r.global) === 1) && r.organizationId === ws.organizationId;
      out.set(
        ws.id,
        rows
          .filter((r) => isGlobal(r) || reaching.has(r.varsetId))
          .map((r) => ({ key: r.key, category: r.category, sensitive: true as const })),
      );
    }
    return out;
  }

  async attachments(varsetIds: readonly string[]): Promise<Map<string, Attachments>> {
    const out = new Map<string, Attachments>(
      varsetIds.map((id) => [id, { workspaceIds: [], projectIds: [] }]),
    );
    if (!varsetIds.length) return out;
    const [ws, prj] = await Promise.all([
      this.workspaces.find({ where: { varsetId: In([...varsetIds]) }, order: { workspaceId: 'ASC' } }),
      this.projects.find({ where: { varsetId: In([...varsetIds]) }, order: { projectId: 'ASC' } }),
    ]);
    for (const a of ws) out.get(a.varsetId)?.workspaceIds.push(a.workspaceId);
    for (const a of prj) out.get(a.varsetId)?.projectIds.push(a.projectId);
    return out;
  }

  /** (set, category, key) of every variable in the organization's global sets, read in the caller's transaction. */
  async globalKeys(
    manager: EntityManager,
    organizationId: string,
  ): Promise<{ varsetId: string; name: string; category: string; key: string }[]> {
    return manager
      .createQueryBuilder(VariableEntity, 'v')
      .innerJoin(VariableSetEntity, 's', 's.id = v.varset_id')
      .select('v.varset_id', 'varsetId')
      .addSelect('s.name', 'name')
      .addSelect('v.category', 'category')
      .addSelect('v.key', 'key')
      .where('s.organization_id = :org', { org: organizationId })
      .andWhere('s.global = 1')
      .getRawMany();
  }

  /** Whether another set of the organization has this name, in any case (read in the caller's transaction). */
  async nameTaken(
    manager: EntityManager,
    organizationId: string,
    name: string,
    exceptId: string,
  ): Promise<boolean> {
    const n = await manager
      .createQueryBuilder(VariableSetEntity, 's')
      .where('s.organization_id = :org', { org: organizationId })
      .andWhere('LOWER(s.name) = LOWER(:name)', { name })
      .andWhere('s.id <> :id', { id: exceptId })
      .getCount();
    return n > 0;
  }

  lock(manager: EntityManager, id: string): Promise<boolean> {
    return lockRow(manager, VariableSetEntity, id);
  }

  async insert(manager: EntityManager, set: VariableSetEntity): Promise<void> {
    await manager.getRepository(VariableSetEntity).insert({ ...set });
  }

  async update(manager: EntityManager, set: VariableSetEntity): Promise<void> {
    const { id, ...rest } = set;
    await manager.getRepository(VariableSetEntity).update({ id }, rest);
  }

  async delete(manager: EntityManager, id: string): Promise<void> {
    await manager.getRepository(VariableSetEntity).delete({ id });
  }

  /** Adds attachments the set does not have yet. */
  async attach(
    manager: EntityManager,
    varsetId: string,
    kind: 'workspaces' | 'projects',
    ids: readonly string[],
  ): Promise<void> {
    if (!ids.length) return;
    if (kind === 'workspaces') {
      const repo = manager.getRepository(VarsetWorkspaceEntity);
      const have = new Set(
        (await repo.find({ where: { varsetId, workspaceId: In([...ids]) } })).map((a) => a.workspaceId),
      );
      const rows = ids.filter((id) => !have.has(id)).map((workspaceId) => ({ varsetId, workspaceId }));
      if (rows.length) await repo.insert(rows);
    } else {
      const repo = manager.getRepository(VarsetProjectEntity);
      const have = new Set(
        (await repo.find({ where: { varsetId, projectId: In([...ids]) } })).map((a) => a.projectId),
      );
      const rows = ids.filter((id) => !have.has(id)).map((projectId) => ({ varsetId, projectId }));
      if (rows.length) await repo.insert(rows);
    }
  }

  /** Removes these attachments (`ids` undefined: all of that kind). */
  async detach(
    manager: EntityManager,
    varsetId: string,
    kind: 'workspaces' | 'projects',
    ids?: readonly string[],
  ): Promise<void> {
    if (ids && !ids.length) return;
    if (kind === 'workspaces') {
      await manager
        .getRepository(VarsetWorkspaceEntity)
        .delete(ids ? { varsetId, workspaceId: In([...ids]) } : { varsetId });
    } else {
      await manager
        .getRepository(VarsetProjectEntity)
        .delete(ids ? { varsetId, projectId: In([...ids]) } : { varsetId });
    }
  }
}
