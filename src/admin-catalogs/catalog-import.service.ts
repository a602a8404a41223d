import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { ChangeEpoch } from '../common/cache/change-epoch';
import { inTransaction } from '../common/sql/transaction';
import { DomainError, Violations } from '../common/errors/domain-error';
import { validateAttributes } from '../common/jsonapi/body';
import { Catalog } from './catalogs';
import { CreateToolVersionAttributes } from './dto/tool-version-attributes.dto';
import { applyChanges, changesFrom, sameValues, ToolVersionChanges } from './tool-version.rules';
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

interface Entry {
  label: string;
  changes: ToolVersionChanges & { version: string };
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

/**
 * Loads a catalog from a JSON array of entries shaped like the API's attributes. Every entry is
 * checked with the API's rules; entries are matched to the catalog by version, so running the
 * same file again changes nothing. Either the whole file is applied or nothing is.
 */
@Injectable()
export class CatalogImportService {
  constructor(
    private readonly repo: ToolVersionsRepository,
    @InjectDataSource() private readonly ds: DataSource,
    private readonly changes: ChangeEpoch,
  ) {}

  /**
   * Imports outside any request (the admin CLI), so it announces its change itself: running
   * servers drop what they remembered of the catalogs.
   */
  async import(catalog: Catalog, document: unknown): Promise<ImportResult> {
    const result = await this.apply(catalog, document);
    if (result.created + result.updated > 0 && this.changes.enabled) await this.changes.advance();
    return result;
  }

  private apply(catalog: Catalog, document: unknown): Promise<ImportResult> {
    const entries = this.parse(document);
    return inTransaction(this.ds, async (manager) => {
      const result: ImportResult = { created: 0, updated: 0, unchanged: 0 };
      const problems: string[] = [];
      for (const { label, changes } of entries) {
        const existing = await this.repo.findByVersion(manager, catalog, changes.version);
        const entry = existing ? Object.assign(newToolVersion(catalog), existing) : newToolVersion(catalog);
        const violations = new Violations();
        // An existing entry keeps its spelling of the version: pins refer to it.
        applyChanges(entry, { ...changes, version: existing?.version ?? changes.version }, violations);
        const details = detailsOf(violations);
        if (details.length) {
          problems.push(...details.map((d) => `${label}: ${d}`));
        } else if (!existing) {
          await this.repo.save(manager, entry);
          result.created += 1;
        } else if (sameValues(existing, entry)) {
          result.unchanged += 1;
        } else {
          await this.repo.save(manager, entry);
          result.updated += 1;
        }
      }
      if (problems.length) throw new CatalogImportError(problems);
      return result;
    });
  }

  /** Checks each entry's attributes and that no version appears twice. */
  private parse(document: unknown): Entry[] {
    if (!Array.isArray(document))
      throw new CatalogImportError(['the file must hold a JSON array of versions']);
    const problems: string[] = [];
    const entries: Entry[] = [];
    const seen = new Map<string, string>();
    document.forEach((item: unknown, i) => {
      const named = isObject(item) && typeof item.version === 'string' ? ` (${item.version})` : '';
      const label = `entry ${i + 1}${named}`;
      if (!isObject(item)) {
        problems.push(`${label}: must be an object`);
        return;
      }
      let attrs: CreateToolVersionAttributes;
      try {
        attrs = validateAttributes(CreateToolVersionAttributes, item);
      } catch (err) {
        if (!(err instanceof DomainError)) throw err;
        problems.push(...err.items.map((e) => `${label}: ${e.detail}`));
        return;
      }
      const key = attrs.version.toLowerCase();
      const first = seen.get(key);
      if (first) {
        problems.push(`${label}: Version ${attrs.version} is also given by ${first}`);
        return;
      }
      seen.set(key, label);
      entries.push({ label, changes: { ...changesFrom(attrs), version: attrs.version } });
    });
    if (problems.length) throw new CatalogImportError(problems);
    return entries;
  }
}
