import { Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import { PermissionService } from '../common/auth/permission.service';
import { OrganizationFlag, Principal } from '../common/auth/principal';
import { notFound } from '../common/errors/domain-error';
import { VariableSetEntity } from './entities/variable-set.entity';
import { VariableSetsRepository } from './variable-sets.repository';

/** Flags that manage every set of the organization (the reference documents both). */
const MANAGE: readonly OrganizationFlag[] = ['manage-variable-sets', 'manage-workspaces'];
/** Flags that read every set: whoever may read every workspace the sets reach. */
const READ: readonly OrganizationFlag[] = [...MANAGE, 'read-workspaces'];

/**
 * Who may see and change variable sets. Managing a set takes owners, `manage-variable-sets` or
 * `manage-workspaces`; a set owned by a project may also be managed with `manage-projects`.
 * Reading a set through `/varsets` takes the right to manage sets or to read every workspace;
 * the sets reaching one workspace or project are read through its own routes instead.
 */
@Injectable()
export class VarsetAccess {
  constructor(
    private readonly permissions: PermissionService,
    private readonly repo: VariableSetsRepository,
  ) {}

  async canManage(p: Principal, set: { organizationId: string; projectId: string | null }): Promise<boolean> {
    const access = await this.permissions.organizationAccess(p, set.organizationId);
    if (!access) return false;
    if (access.owner || MANAGE.some((f) => access.flags.has(f))) return true;
    return set.projectId !== null && access.flags.has('manage-projects');
  }

  async canReadAll(p: Principal, organizationId: string): Promise<boolean> {
    const access = await this.permissions.organizationAccess(p, organizationId);
    return !!access && (access.owner || READ.some((f) => access.flags.has(f)));
  }

  async requireReadable(p: Principal, id: string): Promise<VariableSetEntity> {
    const set = await this.repo.findById(id);
    if (!set) throw notFound();
    if (!(await this.canReadAll(p, set.organizationId)) && !(await this.canManage(p, set))) throw notFound();
    return set;
  }

  /** The set as it is now, read in the caller's transaction (404 once deleted). */
  async requireExisting(manager: EntityManager, id: string): Promise<VariableSetEntity> {
    const set = await this.repo.findById(id, manager);
    if (!set) throw notFound();
    return set;
  }

  async requireManageable(p: Principal, id: string): Promise<VariableSetEntity> {
    const set = await this.repo.findById(id);
    if (!set || !(await this.canManage(p, set))) throw notFound();
    return set;
  }
}
