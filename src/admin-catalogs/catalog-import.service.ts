import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { ClassConstructor } from 'class-transformer';
import { DataSource, EntityManager } from 'typeorm';
import { inTransaction } from '../common/sql/transaction';
import { DomainError, Violations } from '../common/errors/domain-error';
import { validateAttributes } from '../common/jsonapi/body';
import { Catalog } from './catalogs';
import { CreateToolVersionAttributes, ImportToolVersionAttributes } from './dto/tool-version-attributes.dto';
import { applyChanges, changesFrom, sameValues } from './tool-version.rules';
import { ToolVersionsRepository } from './tool-versions.repository';
import { newToolVersion } from './tool-versions.service';

export interface ImportResult {
  created: number;
  updated: number;
  unchanged: number;
}

/** A file that cannot be imported; nothing was written. Each problem names its entry. */
export class CatalogImportError extends Error {
  constructor(readonly problems: string[]) {
    super(problems.join('\n'));
    this.name = 'CatalogImportError';
  }
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The details of the violations a rule check recorded. */
function detailsOf(violations: Violations): string[] {
  try {
    violations.throwIfAny();
    return [];
  } catch (err) {
    if (err instanceof DomainError) return err.items.map((i) => i.detail ?? err.kind);
    throw err;
  }
}

/** The problems of one entry as lines naming it; none when the check passes. */
function checked<A extends object>(
  cls: ClassConstructor<A>,
  item: Record<string, unknown>,
): { attrs: A } | { problems: string[] } {
  try {
    return { attrs: validateAttributes(cls, item) };
  } catch (err) {
    if (!(err instanceof DomainError)) throw err;
    return { problems: err.items.map((e) => e.detail ?? err.kind) };
  }
}

/**
 * Loads a catalog from a JSON array of entries shaped like the API's attributes. Entries are
 * matched to the catalog by version (without regard to case): a version the catalog does not
 * hold yet is checked like a POST (url and sha required), an existing one like a PATCH (what the
 * entry omits keeps its value, so flags change without repeating url and sha). Running the same
 * file again changes nothing. Either the whole file is applied or nothing is, and every problem
 * of the file is reported at once.
 */
@Injectable()
export class CatalogImportService {
  constructor(
    private readonly repo: ToolVersionsRepository,
    @InjectDataSource() private readonly ds: DataSource,
  ) {}

  /**
   * Imports outside any request (the admin CLI): its statements are noted like any other, and the
   * change epoch announces them to running servers, at the latest when the CLI's application
   * closes, so they drop what they remembered of the catalogs.
   */
  async import(catalog: Catalog, document: unknown): Promise<ImportResult> {
    if (!Array.isArray(document))
      throw new CatalogImportError(['the file must hold a JSON array of versions']);
    const result = await this.apply(catalog, document);
    return result;
  }

  private apply(catalog: Catalog, items: unknown[]): Promise<ImportResult> {
    return inTransaction(this.ds, async (manager) => {
      const result: ImportResult = { created: 0, updated: 0, unchanged: 0 };
      const problems: string[] = [];
      /** Lower-cased version → the label of the entry that gave it first. */
      const seen = new Map<string, string>();
      for (const [i, item] of items.entries()) {
        const named = isObject(item) && typeof item.version === 'string' ? ` (${item.version})` : '';
        const label = `entry ${i + 1}${named}`;
        const outcome = await this.applyOne(manager, catalog, item, label, seen);
        if (Array.isArray(outcome)) problems.push(...outcome.map((p) => `${label}: ${p}`));
        else result[outcome] += 1;
      }
      if (problems.length) throw new CatalogImportError(problems);
      return result;
    });
  }

  /** Checks and writes one entry; answers what happened to it, or its problems. */
  private async applyOne(
    manager: EntityManager,
    catalog: Catalog,
    item: unknown,
    label: string,
    seen: Map<string, string>,
  ): Promise<keyof ImportResult | string[]> {
    if (!isObject(item)) return ['must be an object'];
    const version = typeof item.version === 'string' && item.version !== '' ? item.version : undefined;
    const first = version === undefined ? undefined : seen.get(version.toLowerCase());
    if (first) return [`Version ${version} is also given by ${first}`];
    const existing = version ? await this.repo.findByVersion(manager, catalog, version) : null;
    const check = checked(existing ? ImportToolVersionAttributes : CreateToolVersionAttributes, item);
    if ('problems' in check) return check.problems;
    seen.set(check.attrs.version.toLowerCase(), label);

    const entry = existing ? Object.assign(newToolVersion(catalog), existing) : newToolVersion(catalog);
    const violations = new Violations();
    // An existing entry keeps its spelling of the version: pins refer to it.
    applyChanges(
      entry,
      { ...changesFrom(check.attrs), version: existing?.version ?? check.attrs.version },
      violations,
    );
    const details = detailsOf(violations);
    if (details.length) return details;
    if (existing && sameValues(existing, entry)) return 'unchanged';
    await this.repo.save(manager, entry);
    return existing ? 'updated' : 'created';
  }
}
