import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { PermissionService } from '../common/auth/permission.service';
import { Principal } from '../common/auth/principal';
import { Page } from '../common/sql/paginate';
import { inTransaction } from '../common/sql/transaction';
import { isForeignKeyViolation, whenDuplicate } from '../common/errors/db-errors';
import { notFound, taken } from '../common/errors/domain-error';
import { PageParams } from '../common/jsonapi/pagination';
import { newId } from '../common/ids';
import { OrganizationsService } from '../organizations/organizations.service';
import { ReservedTagKeyAttributes } from './dto/reserved-tag-key-attributes.dto';
import { ReservedTagKeyEntity } from './entities/reserved-tag-key.entity';
import { ReservedTagKeysRepository } from './reserved-tag-keys.repository';

/** Every member reads an organization's reserved keys; owners (and organization tokens) write them. */
@Injectable()
export class ReservedTagKeysService {
  constructor(
    private readonly repo: ReservedTagKeysRepository,
    private readonly permissions: PermissionService,
    private readonly organizations: OrganizationsService,
    @InjectDataSource() private readonly ds: DataSource,
  ) {}

  async list(p: Principal, orgName: string, page: PageParams): Promise<Page<ReservedTagKeyEntity>> {
    const org = await this.organizations.requireVisible(p, orgName);
    return this.repo.list(org.id, page);
  }

  async requireReadable(p: Principal, id: string): Promise<ReservedTagKeyEntity> {
    const key = await this.repo.findById(id);
    if (!key) throw notFound();
    await this.permissions.requireMember(p, key.organizationId);
    return key;
  }

  async create(
    p: Principal,
    orgName: string,
    attrs: ReservedTagKeyAttributes,
  ): Promise<ReservedTagKeyEntity> {
    const org = await this.organizations.requireVisible(p, orgName);
    await this.permissions.requireOwner(p, org.id);
    const now = new Date();
    const key = Object.assign(new ReservedTagKeyEntity(), {
      id: newId('rtk'),
      organizationId: org.id,
      key: attrs.key,
      disableOverrides: attrs['disable-overrides'],
      createdAt: now,
      updatedAt: now,
    });
    try {
      if (!(await this.repo.insertUnlessTaken(key))) throw taken('key');
    } catch (err) {
      // The organization went away since it was read.
      if (isForeignKeyViolation(err)) throw notFound();
      throw err;
    }
    return key;
  }

  /** Replaces both attributes; `updated-at` always moves forward, even within the same millisecond. */
  async update(p: Principal, id: string, attrs: ReservedTagKeyAttributes): Promise<ReservedTagKeyEntity> {
    const key = await this.requireReadable(p, id);
    await this.permissions.requireOwner(p, key.organizationId);
    key.key = attrs.key;
    key.disableOverrides = attrs['disable-overrides'];
    key.updatedAt = new Date(Math.max(Date.now(), key.updatedAt.getTime() + 1));
    await this.updateUnique(key);
    return key;
  }

  /**
   * Removing a reserved key leaves tag bindings alone: it only lifts the override restriction
   * for workspace writes made afterwards.
   */
  async delete(p: Principal, id: string): Promise<void> {
    const key = await this.requireReadable(p, id);
    await this.permissions.requireOwner(p, key.organizationId);
    await this.repo.delete(key.id);
  }

  /**
   * The keys among `keys` that the organization reserved with `disable-overrides` on, lower-cased.
   * Runs in the caller's transaction so the answer and the write it guards are one unit.
   */
  async overrideLockedKeys(
    manager: EntityManager,
    organizationId: string,
    keys: string[],
  ): Promise<Set<string>> {
    const lower = [...new Set(keys.map((k) => k.toLowerCase()))];
    return new Set(await this.repo.overrideLocked(manager, organizationId, lower));
  }

  /**
   * Keys are unique per organization ignoring case. Writers of one organization's keys take turns
   * on its row; the unique index still turns any race that slips through into the same 422.
   */
  private async updateUnique(key: ReservedTagKeyEntity): Promise<void> {
    await whenDuplicate(
      () =>
        inTransaction(this.ds, async (manager) => {
          await this.organizations.lockForChildWrites(manager, key.organizationId);
          if (await this.repo.findClash(manager, key.organizationId, key.key, key.id)) throw taken('key');
          await this.repo.update(manager, key);
        }),
      () => taken('key'),
    );
  }
}
