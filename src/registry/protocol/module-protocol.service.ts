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

/** `GET …/:namespace/:name/:provider/:version`: the registry protocol's module details. */
export interface ModuleVersionDetails {
  id: string;
  owner: string;
  namespace: string;
  name: string;
  version: string;
  provider: string;
  provider_logo_url: string;
  description: string;
  source: string;
  tag: string;
  published_at: string;
  downloads: number;
  verified: boolean;
  root: {
    path: string;
    name: string;
    readme: string;
    empty: boolean;
    inputs: unknown[];
    outputs: unknown[];
    dependencies: unknown[];
    provider_dependencies: unknown[];
    resources: unknown[];
  };
  submodules: unknown[];
  examples: unknown[];
  providers: string[];
  versions: string[];
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

  /**
   * A version's details in the registry protocol's shape (what the official Go client reads as
   * `TerraformRegistryModule`). Plinth does not read a module's inputs, outputs or readme out of
   * its archive: `root` lists none.
   */
  async versionDetails(
    p: Principal,
    route: ModuleRoute & { version: string },
  ): Promise<ModuleVersionDetails> {
    const org = await this.organizations.requireVisible(p, route.namespace);
    const rows = await this.repo.publishedVersions(org.id, route.name, route.provider);
    const published = rows.filter((r) => r.version !== null);
    const row = published.find((r) => r.version === route.version);
    if (!row) throw notFound();
    return {
      id: `${org.name}/${route.name}/${route.provider}/${route.version}`,
      owner: '',
      namespace: org.name,
      name: route.name,
      version: route.version,
      provider: route.provider,
      provider_logo_url: '',
      description: '',
      source: '',
      tag: '',
      published_at: new Date(row.created_at as Date | string).toISOString(),
      downloads: 0,
      verified: false,
      root: {
        path: '',
        name: route.name,
        readme: '',
        empty: false,
        inputs: [],
        outputs: [],
        dependencies: [],
        provider_dependencies: [],
        resources: [],
      },
      submodules: [],
      examples: [],
      providers: [route.provider],
      versions: published.map((r) => r.version as string),
    };
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
