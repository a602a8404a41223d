import { readFile } from 'node:fs/promises';
import { CatalogImportService } from '../admin-catalogs/catalog-import.service';
import { CATALOGS, isCatalog } from '../admin-catalogs/catalogs';
import { withApp } from './app-context';
import { CliContext, Output, UsageError } from './io';

async function readJson(file: string): Promise<unknown> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (err) {
    throw new Error(`cannot read ${file}: ${(err as Error).message}`);
  }
  try {
    return JSON.parse(text) as unknown;
  } catch (err) {
    throw new Error(`${file} is not valid JSON: ${(err as Error).message}`);
  }
}

/** `catalog:import <catalog> <file.json>`: see docs/admin-catalogs.md. */
export async function catalogImport(args: string[], io: Output, context: CliContext): Promise<void> {
  const [catalog, file, ...extra] = args;
  if (!catalog || !file || extra.length) throw new UsageError('catalog:import takes a catalog and a file');
  if (!isCatalog(catalog)) {
    throw new UsageError(`unknown catalog "${catalog}"; use ${CATALOGS.join(' or ')}`);
  }
  const document = await readJson(file);
  const result = await withApp(context, (app) => app.get(CatalogImportService).import(catalog, document));
  io.out(`${catalog}: ${result.created} created, ${result.updated} updated, ${result.unchanged} unchanged`);
}
