import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { PermissionService } from '../common/auth/permission.service';
import { FLAG_PROPERTY, ORGANIZATION_FLAGS, Principal } from '../common/auth/principal';
import { Page } from '../common/sql/paginate';
import { IdSubquery } from '../common/sql/id-subquery';
import { inOneStatement, inTransaction } from '../common/sql/transaction';
import { whenDuplicate } from '../common/errors/db-errors';
import { invalid, invalidAttribute, notFound, Violations, taken } from '../common/errors/domain-error';
import { ParsedBody } from '../common/jsonapi/body';
import { ResourceIdentifier, ResourceObject } from '../common/jsonapi/document';
import { PageParams } from '../common/jsonapi/pagination';
import { newId } from '../common/ids';
import type { OrganizationEntity } from '../organizations/entities/organization.entity';
import { OrganizationsService } from '../organizations/organizations.service';
import { UsersService } from '../users/users.service';
import { serializeTeam } from './teams.serializer';
import {
  CreateTeamAttributes,
  OrganizationAccessAttributes,
  UpdateTeamAttributes,
} from './dto/team-attributes.dto';
import { TeamEntity } from './entities/team.entity';
import { secretTeamsSeenBy, seesTeam } from './team-visibility';
import { TeamsRepository } from './teams.repository';

export const OWNERS_TEAM = 'owners';

export interface TeamView {
  team: TeamEntity;
  organization: OrganizationEntity;
  userIds: string[];
}

@Injectable()
export class TeamsService {
  constructor(
    private readonly repo: TeamsRepository,
    private readonly permissions: PermissionService,
    private readonly users: UsersService,
    private readonly organizations: OrganizationsService,
    @InjectDataSource() private readonly ds: DataSource,
  ) {}

  /** The organizations the user belongs to, as a subquery for the organization list. */
  memberOrganizationIds(userId: string): IdSubquery {
    return this.repo.memberOrganizationIds(userId);
  }

  /** An organization's teams, as a subquery for the organization's token list. */
  /** The organization's team ids as SQL; `nameLike`: only teams whose name contains it. */
  teamIdsOf(organizationId: string, nameLike?: string): IdSubquery {
    return this.repo.teamIdsOf(organizationId, nameLike);
  }

  /** Organizations that would be left without an owner if this user went (inside the caller's transaction). */
  solelyOwnedOrganizationIds(manager: EntityManager, userId: string): Promise<string[]> {
    return this.repo.solelyOwnedOrganizationIds(manager, userId);
  }

  /** Locks the team's row: its token is replaced by one writer at a time. */
  lockForTokenChange(manager: EntityManager, teamId: string): Promise<boolean> {
    return this.repo.lock(manager, teamId);
  }

  async createOwnersTeam(
    manager: EntityManager,
    organizationId: string,
    creatorUserId: string,
  ): Promise<TeamEntity> {
    const now = new Date();
    const team = Object.assign(new TeamEntity(), {
      id: newId('team'),
      organizationId,
      name: OWNERS_TEAM,
      isOwners: true,
      visibility: 'organization',
      managePolicies: true,
      manageWorkspaces: true,
      manageProjects: true,
      manageProviders: true,
      managePolicyOverrides: true,
      manageVariableSets: true,
      readWorkspaces: true,
      readProjects: true,
      createdAt: now,
      updatedAt: now,
    });
    await this.repo.saveTeam(manager, team);
    await this.repo.addMembers(manager, team.id, [creatorUserId]);
    return team;
  }

  /**
   * The team if the principal may see it: a member of its organization for a visible team; for
   * a secret one, a member of the team itself or an owner. Otherwise 404.
   */
  async requireVisible(p: Principal, id: string): Promise<TeamEntity> {
    const team = await this.repo.findTeam(id);
    if (!team) throw notFound();
    const access = await this.permissions.requireMember(p, team.organizationId);
    if (!seesTeam(access, team)) throw notFound();
    return team;
  }

  /** Serialized teams among `ids` that the principal may see (a lock holder has one or two). */
  async visibleResources(p: Principal, ids: string[]): Promise<ResourceObject[]> {
    const out: ResourceObject[] = [];
    for (const id of new Set(ids)) {
      const team = await this.repo.findTeam(id);
      const access = team ? await this.permissions.organizationAccess(p, team.organizationId) : null;
      if (!team || !access || !seesTeam(access, team)) continue;
      const v = await this.view(team);
      out.push(serializeTeam(v.team, v.organization.name, v.userIds));
    }
    return out;
  }

  async view(team: TeamEntity, organization?: OrganizationEntity): Promise<TeamView> {
    const [org, members] = await Promise.all([
      organization ?? this.organizations.requireById(team.organizationId),
      this.repo.memberIds([team.id]),
    ]);
    return { team, organization: org, userIds: members.get(team.id) ?? [] };
  }

  async list(p: Principal, orgName: string, page: PageParams): Promise<Page<TeamView>> {
    const org = await this.organizations.requireVisible(p, orgName);
    const access = await this.permissions.requireMember(p, org.id);
    const result = await this.repo.listTeams(org.id, page, secretTeamsSeenBy(access));
    const members = await this.repo.memberIds(result.items.map((t) => t.id));
    return {
      ...result,
      items: result.items.map((team) => ({ team, organization: org, userIds: members.get(team.id) ?? [] })),
    };
  }

  async create(p: Principal, orgName: string, body: ParsedBody<CreateTeamAttributes>): Promise<TeamView> {
    const org = await this.organizations.requireVisible(p, orgName);
    await this.permissions.requireOwner(p, org.id);
    const attrs = body.attributes;
    if (attrs.name === OWNERS_TEAM) throw taken('name');
    const now = new Date();
    const team = Object.assign(new TeamEntity(), {
      id: newId('team'),
      organizationId: org.id,
      name: attrs.name,
      isOwners: false,
      visibility: attrs.visibility ?? 'secret',
      managePolicies: false,
      manageWorkspaces: false,
      manageProjects: false,
      manageProviders: false,
      managePolicyOverrides: false,
      manageVariableSets: false,
      readWorkspaces: false,
      readProjects: false,
      createdAt: now,
      updatedAt: now,
    });
    this.applyAccess(team, attrs['organization-access']);
    await this.saveUnique(team);
    return { team, organization: org, userIds: [] };
  }

  async update(p: Principal, id: string, body: ParsedBody<UpdateTeamAttributes>): Promise<TeamView> {
    const team = await this.requireVisible(p, id);
    await this.permissions.requireOwner(p, team.organizationId);
    const attrs = body.attributes;
    if (team.isOwners && attrs.name !== undefined && attrs.name !== OWNERS_TEAM) {
      throw invalidAttribute('name', 'of the owners team cannot change');
    }
    if (team.isOwners && attrs['organization-access']) {
      throw invalidAttribute('organization-access', 'of the owners team cannot change');
    }
    if (!team.isOwners && attrs.name === OWNERS_TEAM) throw taken('name');
    if (attrs.name !== undefined) team.name = attrs.name;
    if (attrs.visibility !== undefined) team.visibility = attrs.visibility;
    this.applyAccess(team, attrs['organization-access']);
    team.updatedAt = new Date();
    await this.saveUnique(team);
    return this.view(team);
  }

  async delete(p: Principal, id: string): Promise<void> {
    const team = await this.requireVisible(p, id);
    await this.permissions.requireOwner(p, team.organizationId);
    if (team.isOwners) throw invalid('The owners team cannot be deleted');
    await inOneStatement(this.ds, (m) => this.repo.deleteTeam(m, team.id));
  }

  /** Adds users (by id or username) to a team; users already in it are left as they are. */
  async addMembers(p: Principal, id: string, refs: ResourceIdentifier[]): Promise<void> {
    const team = await this.requireVisible(p, id);
    await this.permissions.requireOwner(p, team.organizationId);
    const userIds = await this.resolveUsers(refs);
    await inTransaction(this.ds, async (m) => {
      // Concurrent additions of the same user wait for each other instead of colliding on the key.
      await this.repo.lock(m, team.id);
      await this.repo.addMembers(m, team.id, userIds);
    });
  }

  async removeMembers(p: Principal, id: string, refs: ResourceIdentifier[]): Promise<void> {
    const team = await this.requireVisible(p, id);
    await this.permissions.requireOwner(p, team.organizationId);
    const userIds = await this.resolveUsers(refs);
    await inTransaction(this.ds, async (m) => {
      // Two concurrent removals must not each leave the other as the last owner, then both go.
      await this.repo.lock(m, team.id);
      await this.repo.removeMembers(m, team.id, userIds);
      if (team.isOwners && (await this.repo.countMembers(m, team.id)) === 0) {
        throw invalid('The owners team must keep at least one member', '/data');
      }
    });
  }

  /** For other modules: the team, no permission check. */
  async requireById(id: string): Promise<TeamEntity> {
    const team = await this.repo.findTeam(id);
    if (!team) throw notFound();
    return team;
  }

  /** User ids for identifiers that carry an id or a username; an unknown one is a 422 at its index. */
  private async resolveUsers(refs: ResourceIdentifier[]): Promise<string[]> {
    const users = await this.users.findByRefs(refs.map((r) => r.id));
    const byRef = new Map<string, string>();
    for (const u of users) byRef.set(u.id, u.id).set(u.username, u.id);
    const violations = new Violations();
    const ids = new Set<string>();
    refs.forEach((ref, i) => {
      const id = byRef.get(ref.id);
      if (id) ids.add(id);
      else violations.add(`User ${ref.id} not found`, `/data/${i}/id`);
    });
    violations.throwIfAny();
    return [...ids];
  }

  private applyAccess(team: TeamEntity, access?: OrganizationAccessAttributes): void {
    if (!access) return;
    for (const flag of ORGANIZATION_FLAGS) {
      const value = access[flag];
      if (value !== undefined) (team as unknown as Record<string, boolean>)[FLAG_PROPERTY[flag]] = value;
    }
  }

  private async saveUnique(team: TeamEntity): Promise<void> {
    await whenDuplicate(
      () => inTransaction(this.ds, (m) => this.repo.saveTeam(m, team)),
      () => taken('name'),
    );
  }
}
