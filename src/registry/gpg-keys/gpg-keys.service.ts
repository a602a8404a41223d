import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { PermissionService } from '../../common/auth/permission.service';
import { Principal } from '../../common/auth/principal';
import { Page } from '../../common/sql/paginate';
import { inTransaction } from '../../common/sql/transaction';
import { whenDuplicate } from '../../common/errors/db-errors';
import { badRequest, DomainError, invalid, notFound } from '../../common/errors/domain-error';
import { ParsedBody } from '../../common/jsonapi/body';
import { PageParams } from '../../common/jsonapi/pagination';
import { newId } from '../../common/ids';
import type { OrganizationEntity } from '../../organizations/entities/organization.entity';
import { OrganizationsService } from '../../organizations/organizations.service';
import { RegistryGpgKeyEntity } from '../entities/registry-gpg-key.entity';
import { MANAGE_REGISTRY } from '../registry-namespaces';
import { RegistryReadinessService } from '../uploads/registry-readiness.service';
import { CreateGpgKeyAttributes, UpdateGpgKeyAttributes } from './gpg-key-attributes.dto';
import { GpgKeysRepository } from './gpg-keys.repository';
import { readPublicKey } from './pgp';

export interface GpgKeyView {
  key: RegistryGpgKeyEntity;
  namespace: string;
}

/**
 * Signing keys of private registry namespaces. A namespace is an organization: every member
 * reads its keys; owners and teams with `manage-providers` add, move and delete them. Any change
 * re-checks the signatures of the versions that name the key.
 */
@Injectable()
export class GpgKeysService {
  constructor(
    private readonly repo: GpgKeysRepository,
    private readonly organizations: OrganizationsService,
    private readonly permissions: PermissionService,
    private readonly readiness: RegistryReadinessService,
    @InjectDataSource() private readonly ds: DataSource,
  ) {}

  private async writableNamespace(p: Principal, namespace: string): Promise<OrganizationEntity> {
    const org = await this.organizations.requireByName(namespace);
    await this.permissions.requireFlag(p, org.id, MANAGE_REGISTRY);
    return org;
  }

  private async find(organizationId: string, keyId: string): Promise<RegistryGpgKeyEntity> {
    const key = await this.repo.find(organizationId, keyId);
    if (!key) throw notFound();
    return key;
  }

  async create(p: Principal, body: ParsedBody<CreateGpgKeyAttributes>): Promise<GpgKeyView> {
    const attrs = body.attributes;
    const org = await this.writableNamespace(p, attrs.namespace);
    const { keyId } = await readPublicKey(attrs['ascii-armor']);
    const now = new Date();
    const key = Object.assign(new RegistryGpgKeyEntity(), {
      id: newId('gpgkey'),
      organizationId: org.id,
      keyId,
      asciiArmor: attrs['ascii-armor'],
      createdAt: now,
      updatedAt: now,
    });
    await whenDuplicate(
      () =>
        inTransaction(this.ds, async (manager) => {
          await this.readiness.lockNamespace(manager, org.id);
          await this.repo.insert(manager, key);
        }),
      () => this.taken(keyId, org.name),
    );
    await this.readiness.reverify(org.id, keyId);
    return { key, namespace: org.name };
  }

  /** Keys of the listed namespaces the caller belongs to; 404 when it belongs to none of them. */
  async list(p: Principal, filter: string | undefined, page: PageParams): Promise<Page<GpgKeyView>> {
    const names = [...new Set((filter ?? '').split(',').map((n) => n.trim()))].filter(Boolean);
    if (!names.length) throw badRequest('filter[namespace] is required', 'filter[namespace]');
    const orgs: OrganizationEntity[] = [];
    for (const name of names) {
      try {
        orgs.push(await this.organizations.requireVisible(p, name));
      } catch (err) {
        if (!(err instanceof DomainError && err.kind === 'not-found')) throw err;
      }
    }
    if (!orgs.length) throw notFound();
    const namespaceOf = new Map(orgs.map((o) => [o.id, o.name]));
    const result = await this.repo.list([...namespaceOf.keys()], page);
    return {
      ...result,
      items: result.items.map((key) => ({ key, namespace: namespaceOf.get(key.organizationId)! })),
    };
  }

  async show(p: Principal, namespace: string, keyId: string): Promise<GpgKeyView> {
    const org = await this.organizations.requireVisible(p, namespace);
    return { key: await this.find(org.id, keyId), namespace: org.name };
  }

  /** Moves the key to another namespace the caller may write to. */
  async update(
    p: Principal,
    namespace: string,
    keyId: string,
    body: ParsedBody<UpdateGpgKeyAttributes>,
  ): Promise<GpgKeyView> {
    const from = await this.writableNamespace(p, namespace);
    const key = await this.find(from.id, keyId);
    const to = await this.writableNamespace(p, body.attributes.namespace);
    key.organizationId = to.id;
    key.updatedAt = new Date();
    await whenDuplicate(
      () =>
        inTransaction(this.ds, async (manager) => {
          // Both namespaces, in a fixed order so two opposite moves cannot deadlock.
          for (const id of [...new Set([from.id, to.id])].sort())
            await this.readiness.lockNamespace(manager, id);
          await this.repo.save(manager, key);
        }),
      () => this.taken(key.keyId, to.name),
    );
    if (from.id !== to.id) {
      await this.readiness.reverify(from.id, key.keyId);
      await this.readiness.reverify(to.id, key.keyId);
    }
    return { key, namespace: to.name };
  }

  async delete(p: Principal, namespace: string, keyId: string): Promise<void> {
    const org = await this.writableNamespace(p, namespace);
    const key = await this.find(org.id, keyId);
    await inTransaction(this.ds, async (manager) => {
      await this.readiness.lockNamespace(manager, org.id);
      await this.repo.delete(manager, key.id);
    });
    await this.readiness.reverify(org.id, key.keyId);
  }

  private taken(keyId: string, namespace: string): DomainError {
    return invalid(
      `Key id ${keyId} has already been taken in namespace ${namespace}`,
      '/data/attributes/ascii-armor',
      'GPG_KEY_TAKEN',
    );
  }
}
