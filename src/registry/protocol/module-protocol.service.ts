import { Injectable } from '@nestjs/common';
import { Principal } from '../../common/auth/principal';
import { notFound } from '../../common/errors/domain-error';
import { OrganizationsService } from '../../organizations/organizations.service';
import { RegistryLinks } from '../registry-links';
import { ModuleProtocolRepository } from './module-protocol.repository';

export interface ModuleRoute {
  namespace: string;
  name: string;
  provider: string;
}

/** `{"modules":[{"versions":[{"version":"1.0.0"}]}]}`: the one requested module, first and only. */
export interface ModuleVersionList {
  modules: { versions: { version: string }[] }[];
}

/**
 * The module registry protocol over private modules. The namespace is an organization; only its
 * members see anything. Only versions whose archive passed inspection (`ok`) exist here.
 */
@Injectable()
export class ModuleProtocolService {
  constructor(
    private readonly organizations: OrganizationsService,
    private readonly repo: ModuleProtocolRepository,
    private readonly links: RegistryLinks,
  ) {}

  async listVersions(p: Principal, route: ModuleRoute): Promise<ModuleVersionList> {
    const org = await this.organizations.requireVisible(p, route.namespace);
    const rows = await this.repo.versionList(org.id, route.name, route.provider);
    if (!rows.length) throw notFound();
    const versions = rows.flatMap((row) => (row.version === null ? [] : [{ version: row.version }]));
    return { modules: [{ versions }] };
  }

  /** The `X-Terraform-Get` value: a signed, expiring link of the archive with its type hint. */
  async downloadLocation(
    p: Principal,
    origin: string,
    route: ModuleRoute & { version: string },
  ): Promise<string> {
    const org = await this.organizations.requireVisible(p, route.namespace);
    const row = await this.repo.download(org.id, route.name, route.provider, route.version);
    if (!row?.version_id || row.status !== 'ok') throw notFound();
    return this.links.moduleArchive(origin, row.version_id);
  }
}
