import { MiddlewareConsumer, Module, NestModule } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { AppConfig } from '../config/app-config';
import { CatalogImportService } from './catalog-import.service';
import { CatalogUsageRegistry } from './catalog-usage.registry';
import { ToolVersionEntity } from './entities/tool-version.entity';
import { SelfHostedOnlyMiddleware } from './self-hosted-only.middleware';
import { SiteAdminGuard } from './site-admin.guard';
import { CATALOG_CONTROLLERS } from './tool-versions.controller';
import { ToolVersionsRepository } from './tool-versions.repository';
import { ToolVersionsService } from './tool-versions.service';

/**
 * The administrator catalogs of engine and policy-engine versions, each also under the real
 * service's name (`terraform-versions`, `opa-versions`). Exports the service (pinning
 * checks) and the usage registry, where each module that pins versions registers its counter.
 */
@Module({
  imports: [TypeOrmModule.forFeature([ToolVersionEntity])],
  controllers: CATALOG_CONTROLLERS,
  providers: [
    ToolVersionsRepository,
    ToolVersionsService,
    CatalogUsageRegistry,
    CatalogImportService,
    SiteAdminGuard,
  ],
  exports: [ToolVersionsService, CatalogUsageRegistry],
})
export class AdminCatalogsModule implements NestModule {
  constructor(private readonly config: AppConfig) {}

  /**
   * Mounted only where it refuses something (a cloud deployment): Express would otherwise try the
   * catalogs' twenty routes on every request of a self-hosted server, to let it through.
   */
  configure(consumer: MiddlewareConsumer): void {
    if (this.config.deployment === 'cloud') {
      consumer.apply(SelfHostedOnlyMiddleware).forRoutes(...CATALOG_CONTROLLERS);
    }
  }
}
