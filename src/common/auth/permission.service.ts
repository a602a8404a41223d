import { Injectable } from '@nestjs/common';
import { notFound } from '../errors/domain-error';
import { WORKSPACE_ACCESS_LEVELS, WorkspaceAccessLevel } from '../../teams/entities/team-workspace.entity';
import { TeamEntity } from '../../teams/entities/team.entity';
import { AccessRepository } from './access.repository';
import { OrganizationAccess, OrganizationFlag, Principal } from './principal';

const FLAG_COLUMNS: Record<OrganizationFlag, keyof TeamEntity> = {
  'manage-policies': 'managePolicies',
  'manage-workspaces': 'manageWorkspaces',
  'manage-projects': 'manageProjects',
  'manage-providers': 'manageProviders',
  'read-workspaces': 'readWorkspaces',
  'read-projects': 'readProjects',
};

const OWNER: OrganizationAccess = {
  owner: true,
  flags: new Set(Object.keys(FLAG_COLUMNS) as OrganizationFlag[]),
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

/** The highest of the team grants, with `read-workspaces` counting as read everywhere. */
function bestLevel(
  access: OrganizationAccess,
  granted: readonly WorkspaceAccessLevel[],
): WorkspaceAccessLevel | null {
  let best: WorkspaceAccessLevel | null = access.flags.has('read-workspaces') ? 'read' : null;
  for (const level of granted) {
    if (best === null || rank(level) > rank(best)) best = level;
  }
  return best;
}

/**
 * The one authority on "may principal P do A on resource R". Guards and services ask it;
 * nothing else decides. Answers are cached for the life of the request's principal.
 */
@Injectable()
export class PermissionService {
  private readonly cache = new WeakMap<Principal, Map<string, Promise<OrganizationAccess | null>>>();

  constructor(private readonly access: AccessRepository) {}

  isSiteAdmin(p: Principal): boolean {
    return p.kind === 'user' && p.isSiteAdmin;
  }

  /** Owner rights, team flags and acting teams in one organization; null for non-members. */
  organizationAccess(p: Principal, organizationId: string): Promise<OrganizationAccess | null> {
    let perOrg = this.cache.get(p);
    if (!perOrg) {
      perOrg = new Map();
      this.cache.set(p, perOrg);
    }
    let pending = perOrg.get(organizationId);
    if (!pending) {
      pending = this.resolve(p, organizationId);
      perOrg.set(organizationId, pending);
    }
    return pending;
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

  private fromTeams(teams: TeamEntity[]): OrganizationAccess {
    const owner = teams.some((t) => t.isOwners);
    const flags = new Set<OrganizationFlag>();
    for (const [flag, column] of Object.entries(FLAG_COLUMNS) as [OrganizationFlag, keyof TeamEntity][]) {
      if (owner || teams.some((t) => t[column] === true)) flags.add(flag);
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

  /** The highest access the principal has to a workspace (admin > write > plan > read), or null. */
  async workspaceLevel(p: Principal, ws: WorkspaceRef): Promise<WorkspaceAccessLevel | null> {
    const access = await this.organizationAccess(p, ws.organizationId);
    if (!access) return null;
    if (access.owner || access.flags.has('manage-workspaces')) return 'admin';
    return bestLevel(access, await this.access.accessLevels(access.teamIds, ws.id));
  }

  /** `workspaceLevel` for many workspaces with one grants query per organization, for lists. */
  async workspaceLevels(
    p: Principal,
    workspaces: readonly WorkspaceRef[],
  ): Promise<Map<string, WorkspaceAccessLevel | null>> {
    const levels = new Map<string, WorkspaceAccessLevel | null>();
    const byOrganization = new Map<string, WorkspaceRef[]>();
    for (const ws of workspaces) {
      byOrganization.set(ws.organizationId, [...(byOrganization.get(ws.organizationId) ?? []), ws]);
    }
    for (const [organizationId, inOrg] of byOrganization) {
      const access = await this.organizationAccess(p, organizationId);
      if (!access || access.owner || access.flags.has('manage-workspaces')) {
        for (const ws of inOrg) levels.set(ws.id, access ? 'admin' : null);
        continue;
      }
      const granted = await this.access.accessLevelsByWorkspace(
        access.teamIds,
        inOrg.map((ws) => ws.id),
      );
      for (const ws of inOrg) levels.set(ws.id, bestLevel(access, granted.get(ws.id) ?? []));
    }
    return levels;
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
  async workspaceReadScope(
    p: Principal,
    organizationId: string,
  ): Promise<{ all: true } | { teamIds: string[] }> {
    const access = await this.requireMember(p, organizationId);
    if (access.owner || access.flags.has('manage-workspaces') || access.flags.has('read-workspaces')) {
      return { all: true };
    }
    return { teamIds: [...access.teamIds] };
  }

  async canReadProject(p: Principal, project: ProjectRef): Promise<boolean> {
    const access = await this.organizationAccess(p, project.organizationId);
    if (!access) return false;
    if (access.owner) return true;
    const broad: OrganizationFlag[] = [
      'manage-projects',
      'read-projects',
      'manage-workspaces',
      'read-workspaces',
    ];
    if (broad.some((f) => access.flags.has(f))) return true;
    return this.access.hasAnyWorkspaceInProject(access.teamIds, project.id);
  }

  async requireProjectRead(p: Principal, project: ProjectRef): Promise<void> {
    if (!(await this.canReadProject(p, project))) throw notFound();
  }
}
