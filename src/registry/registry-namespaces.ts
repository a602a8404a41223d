import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { PermissionService } from '../common/auth/permission.service';
import { OrganizationFlag, Principal } from '../common/auth/principal';
import { whenDuplicate } from '../common/errors/db-errors';
import { badRequest, invalidAttribute, notFound, taken } from '../common/errors/domain-error';
import { inOneStatement } from '../common/sql/transaction';
import type { OrganizationEntity } from '../organizations/entities/organization.entity';
import { OrganizationsService } from '../organizations/organizations.service';
import { REGISTRY_NAMES, RegistryName } from './entities/registry-provider.entity';

/**
 * The flag that lets a team publish and delete providers, GPG keys and modules. One flag governs
 * the whole registry rather than a separate `manage-modules`: see docs/registry.md.
 */
export const MANAGE_REGISTRY: OrganizationFlag = 'manage-providers';

export function isRegistryName(value: string): value is RegistryName {
  return (REGISTRY_NAMES as readonly string[]).includes(value);
}

/**
 * The namespace on the wire: a private entry's is its organization's name (stored empty, so it
 * follows a rename); a public one's is the curated public namespace it records.
 */
export function wireNamespace(
  entry: { registryName: RegistryName; namespace: string },
  organizationName: string,
): string {
  return entry.registryName === 'private' ? organizationName : entry.namespace;
}

/** Where a registry entry (module or provider) lives: its organization, registry and stored namespace. */
export interface RegistryPlace {
  organization: OrganizationEntity;
  registryName: RegistryName;
  /** The stored namespace: empty for private entries. */
  namespace: string;
}

/** The organization and registry part of a route's path. */
export interface RegistryPlacePath {
  org: string;
  registryName: string;
  namespace: string;
}

/** What a create sends about where the entry goes. */
export interface RegistryPlaceAttributes {
  'registry-name'?: RegistryName;
  namespace?: string;
}

/** A list's organization and filters, checked. */
export interface RegistryListScope {
  organization: OrganizationEntity;
  filter: {
    organizationId: string;
    registryName?: RegistryName;
    search?: string;
    /** The search also matches the organization's name, i.e. the namespace of its private entries. */
    searchMatchesOrganization: boolean;
  };
}

/**
 * What the registry's modules and providers share: who may see and manage them, how a path names
 * one (a private entry's namespace is its organization's name, stored empty), a list's filters, and
 * how a create checks the place it names and refuses a duplicate.
 */
@Injectable()
export class RegistryNamespaces {
  constructor(
    private readonly organizations: OrganizationsService,
    private readonly permissions: PermissionService,
    @InjectDataSource() private readonly ds: DataSource,
  ) {}

  /** Owners and teams with `manage-providers` publish and delete; every member reads. */
  canManage(p: Principal, organization: OrganizationEntity): Promise<boolean> {
    return this.permissions.hasFlag(p, organization.id, MANAGE_REGISTRY);
  }

  /** The place a path names, for a member of the organization; 404 for anything else. */
  async locate(p: Principal, path: RegistryPlacePath): Promise<RegistryPlace> {
    const organization = await this.organizations.requireVisible(p, path.org);
    if (!isRegistryName(path.registryName)) throw notFound();
    if (path.registryName === 'private' && path.namespace !== organization.name) throw notFound();
    return {
      organization,
      registryName: path.registryName,
      namespace: path.registryName === 'private' ? '' : path.namespace,
    };
  }

  /** A list's organization (for a member) and its filters; 400 for an unknown `filter[registry_name]`. */
  async listScope(
    p: Principal,
    orgName: string,
    query: { registryName?: string; search?: string },
  ): Promise<RegistryListScope> {
    const organization = await this.organizations.requireVisible(p, orgName);
    if (query.registryName !== undefined && !isRegistryName(query.registryName)) {
      throw badRequest('filter[registry_name] must be private or public', 'filter[registry_name]');
    }
    const search = query.search?.trim() || undefined;
    return {
      organization,
      filter: {
        organizationId: organization.id,
        registryName: query.registryName,
        search,
        searchMatchesOrganization: !!search && organization.name.toLowerCase().includes(search.toLowerCase()),
      },
    };
  }

  /**
   * Where a create puts its entry, for a caller who may manage the registry (404 otherwise): a
   * private entry's namespace, when sent, must be the organization's name; a public one needs one.
   * `kind` names the entries in the message (`modules`, `providers`).
   */
  async placeForCreate(
    p: Principal,
    orgName: string,
    attrs: RegistryPlaceAttributes,
    kind: string,
  ): Promise<RegistryPlace> {
    const organization = await this.organizations.requireVisible(p, orgName);
    await this.permissions.requireFlag(p, organization.id, MANAGE_REGISTRY);
    const registryName = attrs['registry-name'] ?? 'private';
    if (
      registryName === 'private' &&
      attrs.namespace !== undefined &&
      attrs.namespace !== organization.name
    ) {
      throw invalidAttribute('namespace', `must be the organization name for private ${kind}`);
    }
    if (registryName === 'public' && attrs.namespace === undefined) {
      throw invalidAttribute('namespace', "can't be blank");
    }
    return { organization, registryName, namespace: registryName === 'private' ? '' : attrs.namespace! };
  }

  /** Inserts a new entry in one statement; its unique identity index refuses a duplicate (422 `name`). */
  async insertNew(insert: (manager: EntityManager) => Promise<void>): Promise<void> {
    await whenDuplicate(
      () => inOneStatement(this.ds, insert),
      () => taken('name'),
    );
  }
}
