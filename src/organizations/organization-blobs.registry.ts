import { Injectable } from '@nestjs/common';
import { EntityManager, EntityTarget } from 'typeorm';

/** Lists the blob-store prefixes holding an organization's files, read inside the delete transaction. */
export type BlobPrefixCollector = (manager: EntityManager, organizationId: string) => Promise<string[]>;

/**
 * Modules that keep files for an organization (policy code, policy set archives, provider files)
 * register here, so deleting the organization can remove its files without knowing their layout.
 */
@Injectable()
export class OrganizationBlobsRegistry {
  private readonly collectors: BlobPrefixCollector[] = [];

  register(collector: BlobPrefixCollector): void {
    this.collectors.push(collector);
  }

  async collect(manager: EntityManager, organizationId: string): Promise<string[]> {
    const lists = await Promise.all(this.collectors.map((c) => c(manager, organizationId)));
    return lists.flat();
  }
}

/** A collector for resources whose files live under one prefix per resource id. */
export function idPrefixCollector(
  entity: EntityTarget<{ id: string; organizationId: string }>,
  prefixOf: (id: string) => string,
): BlobPrefixCollector {
  return async (manager, organizationId) => {
    const rows = await manager
      .getRepository(entity)
      .find({ select: { id: true }, where: { organizationId } });
    return rows.map((r) => prefixOf(r.id));
  };
}
