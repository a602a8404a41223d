import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { Page } from '../common/sql/paginate';
import { inTransaction } from '../common/sql/transaction';
import { whenDuplicate } from '../common/errors/db-errors';
import { humanize, invalidAttribute, notFound, Violations, taken } from '../common/errors/domain-error';
import { newId } from '../common/ids';
import { PageParams } from '../common/jsonapi/pagination';
import { CatalogUsageRegistry } from './catalog-usage.registry';
import { Catalog, LATEST } from './catalogs';
import { CreateToolVersionAttributes, UpdateToolVersionAttributes } from './dto/tool-version-attributes.dto';
import { ToolVersionEntity } from './entities/tool-version.entity';
import { applyChanges, changesFrom } from './tool-version.rules';
import { ToolVersionListFilter, ToolVersionsRepository } from './tool-versions.repository';

export interface ToolVersionView {
  entry: ToolVersionEntity;
  /** Consumers (workspaces, policy sets) pinned to the version. */
  usage: number;
}

/** A catalog entry with the contract's defaults, before the request's attributes are applied. */
export function newToolVersion(catalog: Catalog): ToolVersionEntity {
  return Object.assign(new ToolVersionEntity(), {
    id: newId('tool'),
    catalog,
    deprecated: false,
    deprecatedReason: null,
    official: false,
    enabled: true,
    beta: false,
    createdAt: new Date(),
  });
}

/**
 * The administrator catalogs. Routes are for site administrators only (the controller's guard
 * decides); the pinning check is for the modules whose resources pin a version.
 */
@Injectable()
export class ToolVersionsService {
  constructor(
    private readonly repo: ToolVersionsRepository,
    private readonly usage: CatalogUsageRegistry,
    @InjectDataSource() private readonly ds: DataSource,
  ) {}

  async list(
    catalog: Catalog,
    filter: ToolVersionListFilter,
    page: PageParams,
  ): Promise<Page<ToolVersionView>> {
    const result = await this.repo.list(catalog, filter, page);
    const totals = await this.usage.totals(
      catalog,
      result.items.map((e) => e.version),
    );
    return {
      ...result,
      items: result.items.map((entry) => ({ entry, usage: totals.get(entry.version.toLowerCase()) ?? 0 })),
    };
  }

  async show(catalog: Catalog, id: string): Promise<ToolVersionView> {
    const entry = await this.repo.findById(catalog, id);
    if (!entry) throw notFound();
    return this.view(entry);
  }

  async create(catalog: Catalog, attrs: CreateToolVersionAttributes): Promise<ToolVersionView> {
    const entry = newToolVersion(catalog);
    const violations = new Violations();
    applyChanges(entry, changesFrom(attrs), violations);
    await this.saveUnique(async (manager) => {
      await this.checkVersionFree(manager, entry, violations);
      violations.throwIfAny();
      return this.repo.save(manager, entry);
    });
    return { entry, usage: 0 };
  }

  async update(catalog: Catalog, id: string, attrs: UpdateToolVersionAttributes): Promise<ToolVersionView> {
    const entry = await this.saveUnique(async (manager) => {
      const current = await this.repo.lockById(manager, catalog, id, 'update');
      if (!current) throw notFound();
      const previous = current.version;
      const violations = new Violations();
      applyChanges(current, changesFrom(attrs), violations);
      if (current.version !== previous) {
        await this.checkVersionFree(manager, current, violations);
        // Pins hold the version string: renaming a pinned version would leave them dangling.
        const consumers = await this.usage.consumersOf(catalog, previous, manager);
        if (consumers.length) {
          violations.attribute(
            'version',
            `cannot be changed while ${previous} is used by ${CatalogUsageRegistry.describe(consumers)}`,
          );
        }
      }
      violations.throwIfAny();
      return this.repo.save(manager, current);
    });
    return this.view(entry);
  }

  /** Deletes an entry unless it is official or pinned; the 422 says which. */
  async delete(catalog: Catalog, id: string): Promise<void> {
    await inTransaction(this.ds, async (manager) => {
      const entry = await this.repo.lockById(manager, catalog, id, 'update');
      if (!entry) throw notFound();
      const violations = new Violations();
      if (entry.official) violations.add(`Version ${entry.version} is official and cannot be deleted`);
      const consumers = await this.usage.consumersOf(catalog, entry.version, manager);
      if (consumers.length) {
        violations.add(
          `Version ${entry.version} is used by ${CatalogUsageRegistry.describe(consumers)} and cannot be deleted`,
        );
      }
      violations.throwIfAny();
      await this.repo.delete(manager, entry.id);
    });
  }

  /**
   * Checks that `version` may be newly pinned by a resource's `attribute`: `latest`, or a version
   * present and enabled in `catalog`; otherwise a 422 pointing at the attribute. Returns the
   * version as the catalog spells it, which is what the caller should store. Given the caller's
   * transaction, the entry stays locked against deletion until the pin is saved.
   */
  async assertPinnable(
    catalog: Catalog,
    version: string,
    attribute: string,
    manager?: EntityManager,
  ): Promise<string> {
    if (version === LATEST) return LATEST;
    const found = await this.repo.findByVersion(manager ?? this.ds.manager, catalog, version);
    // Re-read under a lock: a delete or rename that won the race shows here as a missing entry.
    const entry = found && manager ? await this.repo.lockById(manager, catalog, found.id, 'share') : found;
    if (!entry || entry.version.toLowerCase() !== version.toLowerCase()) {
      throw invalidAttribute(
        attribute,
        `${version} is not in the ${humanize(catalog).toLowerCase()} catalog; use latest or an enabled catalog version`,
      );
    }
    if (!entry.enabled) {
      throw invalidAttribute(
        attribute,
        `${entry.version} is disabled; a disabled version cannot be newly pinned`,
      );
    }
    return entry.version;
  }

  private async view(entry: ToolVersionEntity): Promise<ToolVersionView> {
    const totals = await this.usage.totals(entry.catalog, [entry.version]);
    return { entry, usage: totals.get(entry.version.toLowerCase()) ?? 0 };
  }

  private async checkVersionFree(
    manager: EntityManager,
    entry: ToolVersionEntity,
    violations: Violations,
  ): Promise<void> {
    const other = await this.repo.findByVersion(manager, entry.catalog, entry.version);
    if (other && other.id !== entry.id) violations.taken('version');
  }

  private async saveUnique(
    work: (manager: EntityManager) => Promise<ToolVersionEntity>,
  ): Promise<ToolVersionEntity> {
    return whenDuplicate(
      () => inTransaction(this.ds, work),
      () => taken('version'),
    );
  }
}
