import { Injectable } from '@nestjs/common';
import { notFound } from '../errors/domain-error';
import { AccessRepository } from './access.repository';
import { contextOf } from '../request-context';
import { AuthCache } from './auth-cache';
import {
  FLAG_PROPERTY,
  ORGANIZATION_FLAGS,
  OrganizationAccess,
  OrganizationFlag,
  Principal,
  TeamFlags,
  WORKSPACE_ACCESS_LEVELS,
  WorkspaceAccessLevel,
} from './principal';

const OWNER: OrganizationAccess = {
  owner: true,
  flags: new Set(ORGANIZATION_FLAGS),
  teamIds: [],
};

export interface WorkspaceRef {
  id: string;
  organizationId: string;
}

export interface ProjectRef {
  id: string;
  organizationId: string;
}

function rank(level: WorkspaceAccessLevel): number {
  return WORKSPACE_ACCESS_LEVELS.indexOf(level);
}

/**
 * The one authority on "may principal P do A on resource R". Guards and services ask it;
 * nothing else decides. Organization rights are memoised for the request the principal acts for
 * (its RequestContext) and, across requests, in the AuthCache (see there for how long and how
 * changes apply).
 */
@Injectable()
export class PermissionService {
  constructor(
    private readonly access: AccessRepository,
    private readonly shared: AuthCache,
  ) {}

  isSiteAdmin(p: Principal): boolean {
    return p.kind === 'user' && p.isSiteAdmin;
  }

  /** Owner rights, team flags and acting teams in one organization; null for non-members. */
  organizationAccess(p: Principal, organizationId: string): Promise<OrganizationAccess | null> {
    const context = contextOf(p);
    if (!context) return this.sharedAccess(p, organizationId);
    const perOrg = (context.organizationAccess ??= new Map<string, Promise<OrganizationAccess | null>>());
    let pending = perOrg.get(organizationId);
    if (!pending) {
      pending = this.sharedAccess(p, organizationId);
      perOrg.set(organizationId, pending);
      pending.then(
        (access) => {
          if (access) context.actingOrganization ??= organizationId;
        },
        () => undefined,
      );
    }
    return pending;
  }

  private sharedAccess(p: Principal, organizationId: string): Promise<OrganizationAccess | null> {
    return this.shared.get(`access:${principalKey(p)}:${organizationId}`, () =>
      this.resolve(p, organizationId),
    );
  }

  private async resolve(p: Principal, organizationId: string): Promise<OrganizationAccess | null> {
    switch (p.kind) {
      case 'organization':
        return p.organizationId === organizationId ? OWNER : null;
      case 'team': {
        if (p.organizationId !== organizationId) return null;
        const team = await this.access.team(p.teamId);
        return team ? this.fromTeams([team]) : null;
      }
      case 'user': {
        const teams = await this.access.teamsOfUserInOrganization(p.userId, organizationId);
        if (teams.length) {
          const fromTeams = this.fromTeams(teams);
          return p.isSiteAdmin ? { ...OWNER, teamIds: fromTeams.teamIds } : fromTeams;
        }
        return p.isSiteAdmin ? OWNER : null;
      }
    }
  }

  private fromTeams(teams: (TeamFlags & { id: string; isOwners: boolean })[]): OrganizationAccess {
    const owner = teams.some((t) => t.isOwners);
    const flags = new Set<OrganizationFlag>();
    for (const flag of ORGANIZATION_FLAGS) {
      if (owner || teams.some((t) => t[FLAG_PROPERTY[flag]] === true)) flags.add(flag);
    }
    return { owner, flags, teamIds: teams.map((t) => t.id) };
  }

  async isMember(p: Principal, organizationId: string): Promise<boolean> {
    return (await this.organizationAccess(p, organizationId)) !== null;
  }

  async isOwner(p: Principal, organizationId: string): Promise<boolean> {
    return (await this.organizationAccess(p, organizationId))?.owner === true;
  }

  async hasFlag(p: Principal, organizationId: string, flag: OrganizationFlag): Promise<boolean> {
    const access = await this.organizationAccess(p, organizationId);
    return !!access && (access.owner || access.flags.has(flag));
  }

  /** Throws the 404 a caller without the right sees, so it cannot tell forbidden from missing. */
  async requireMember(p: Principal, organizationId: string): Promise<OrganizationAccess> {
    const access = await this.organizationAccess(p, organizationId);
    if (!access) throw notFound();
    return access;
  }

  async requireOwner(p: Principal, organizationId: string): Promise<void> {
    if (!(await this.isOwner(p, organizationId))) throw notFound();
  }

  async requireFlag(p: Principal, organizationId: string, flag: OrganizationFlag): Promise<void> {
    if (!(await this.hasFlag(p, organizationId, flag))) throw notFound();
  }

  /** Owners of an organization among `organizationIds`, for lists that show `can-update` per row. */
  async ownedOrganizationIds(p: Principal, organizationIds: readonly string[]): Promise<Set<string>> {
    const ids = [...new Set(organizationIds)];
    switch (p.kind) {
      case 'user':
        return this.isSiteAdmin(p) ? new Set(ids) : this.access.ownedOrganizationIds(p.userId, ids);
      case 'team':
      case 'organization':
        return (await this.isOwner(p, p.organizationId)) && ids.includes(p.organizationId)
          ? new Set([p.organizationId])
          : new Set();
    }
  }

  /** The highest access the principal has to a workspace (admin > write > plan > read), or null. */
  async workspaceLevel(p: Principal, ws: WorkspaceRef): Promise<WorkspaceAccessLevel | null> {
    return (await this.workspaceLevels(p, [ws])).get(ws.id) ?? null;
  }

  /** `workspaceLevel` for many workspaces at once: one grants query per organization involved. */
  async workspaceLevels(
    p: Principal,
    workspaces: readonly WorkspaceRef[],
  ): Promise<Map<string, WorkspaceAccessLevel | null>> {
    const out = new Map<string, WorkspaceAccessLevel | null>();
    for (const [organizationId, group] of byOrganization(workspaces)) {
      const access = await this.organizationAccess(p, organizationId);
      if (!access) {
        for (const ws of group) out.set(ws.id, null);
        continue;
      }
      if (access.owner || access.flags.has('manage-workspaces')) {
        for (const ws of group) out.set(ws.id, 'admin');
        continue;
      }
      const floor: WorkspaceAccessLevel | null = access.flags.has('read-workspaces') ? 'read' : null;
      for (const ws of group) out.set(ws.id, floor);
      const grants = await this.access.accessGrants(
        access.teamIds,
        group.map((ws) => ws.id),
      );
      for (const { workspaceId, access: level } of grants) {
        const best = out.get(workspaceId) ?? null;
        if (best === null || rank(level) > rank(best)) out.set(workspaceId, level);
      }
    }
    return out;
  }

  async hasWorkspaceLevel(p: Principal, ws: WorkspaceRef, min: WorkspaceAccessLevel): Promise<boolean> {
    const level = await this.workspaceLevel(p, ws);
    return level !== null && rank(level) >= rank(min);
  }

  async requireWorkspaceLevel(p: Principal, ws: WorkspaceRef, min: WorkspaceAccessLevel): Promise<void> {
    if (!(await this.hasWorkspaceLevel(p, ws, min))) throw notFound();
  }

  /**
   * Which workspaces of an organization a principal may read: all of them, or those its teams
   * were given access to. Repositories turn the answer into a WHERE clause.
   */
  async workspaceReadScope(p: Principal, organizationId: string): Promise<ReadScope> {
    const access = await this.requireMember(p, organizationId);
    if (access.owner || access.flags.has('manage-workspaces') || access.flags.has('read-workspaces')) {
      return { all: true };
    }
    return { teamIds: [...access.teamIds] };
  }

  /**
   * Which projects of an organization a principal may read: all of them (owners and the project or
   * workspace flags), or those holding a workspace its teams were given access to.
   */
  async projectReadScope(p: Principal, organizationId: string): Promise<ReadScope> {
    const access = await this.requireMember(p, organizationId);
    return readsAllProjects(access) ? { all: true } : { teamIds: [...access.teamIds] };
  }

  async canReadProject(p: Principal, project: ProjectRef): Promise<boolean> {
    return (await this.readableProjectIds(p, [project])).has(project.id);
  }

  /** The ids among `projects` the principal may read: one query per organization at most. */
  async readableProjectIds(p: Principal, projects: readonly ProjectRef[]): Promise<Set<string>> {
    const readable = new Set<string>();
    for (const [organizationId, group] of byOrganization(projects)) {
      const access = await this.organizationAccess(p, organizationId);
      if (!access) continue;
      const ids = group.map((project) => project.id);
      const allowed = readsAllProjects(access)
        ? ids
        : await this.access.projectsWithTeamWorkspaces(access.teamIds, ids);
      for (const id of allowed) readable.add(id);
    }
    return readable;
  }

  async requireProjectRead(p: Principal, project: ProjectRef): Promise<void> {
    if (!(await this.canReadProject(p, project))) throw notFound();
  }
}

/** Who the rights belong to: the same user, team or organization token across requests. */
function principalKey(p: Principal): string {
  switch (p.kind) {
    case 'user':
      return `user:${p.userId}:${p.isSiteAdmin ? 'admin' : 'member'}`;
    case 'team':
      return `team:${p.teamId}`;
    case 'organization':
      return `organization:${p.organizationId}`;
  }
}

export type ReadScope = { all: true } | { teamIds: string[] };

function readsAllProjects(access: OrganizationAccess): boolean {
  const broad: OrganizationFlag[] = [
    'manage-projects',
    'read-projects',
    'manage-workspaces',
    'read-workspaces',
  ];
  return access.owner || broad.some((f) => access.flags.has(f));
}

function byOrganization<T extends { organizationId: string }>(items: readonly T[]): Map<string, T[]> {
  const groups = new Map<string, T[]>();
  for (const item of items) {
    const group = groups.get(item.organizationId);
    if (group) group.push(item);
    else groups.set(item.organizationId, [item]);
  }
  return groups;
}
