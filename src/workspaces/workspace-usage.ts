import { Injectable, OnModuleInit } from '@nestjs/common';
import { CatalogUsageRegistry } from '../admin-catalogs/catalog-usage.registry';
import { ProjectWorkspaceCounts } from '../projects/project-workspace-counts';
import { WorkspacesRepository } from './workspaces.repository';

/**
 * Counts over the workspaces table that modules this one depends on show: `workspace-count` of
 * projects, and the engine catalog's usage and delete guard (as policy sets do for the
 * policy-engine catalog). They register here so neither module reads this module's table.
 */
@Injectable()
export class WorkspaceUsage implements OnModuleInit {
  constructor(
    private readonly repo: WorkspacesRepository,
    private readonly projectCounts: ProjectWorkspaceCounts,
    private readonly catalogUsage: CatalogUsageRegistry,
  ) {}

  onModuleInit(): void {
    this.projectCounts.register((projectIds) => this.repo.countByProject(projectIds));
    this.catalogUsage.register(
      'engine-versions',
      (versions, manager) => this.repo.countByEngineVersion(versions, manager),
      {
        one: 'workspace',
        other: 'workspaces',
      },
    );
  }
}
