import { Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';

/** Lists the blob-store prefixes holding these workspaces' files, read inside the delete transaction. */
export type WorkspaceBlobCollector = (manager: EntityManager, workspaceIds: string[]) => Promise<string[]>;

/**
 * Modules that keep files for a workspace (configuration versions, run logs and plans) register
 * here, so deleting the workspace, or its organization, removes its files without knowing their
 * layout. Rows go first, files after the commit: a crash in between leaves unreferenced files under
 * prefixes nothing points at, never a row without its file.
 */
@Injectable()
export class WorkspaceBlobsRegistry {
  private readonly collectors: WorkspaceBlobCollector[] = [];

  register(collector: WorkspaceBlobCollector): void {
    this.collectors.push(collector);
  }

  async collect(manager: EntityManager, workspaceIds: string[]): Promise<string[]> {
    if (workspaceIds.length === 0) return [];
    const lists = await Promise.all(this.collectors.map((c) => c(manager, workspaceIds)));
    return lists.flat();
  }
}
