import { Module, OnModuleInit } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { idPrefixCollector, OrganizationBlobsRegistry } from '../organizations/organization-blobs.registry';
import { blobKeys } from './registry-links';
import { OrganizationsModule } from '../organizations/organizations.module';
import { RegistryGpgKeyEntity } from './entities/registry-gpg-key.entity';
import { RegistryProviderChecksumEntity } from './entities/registry-provider-checksum.entity';
import { RegistryProviderPlatformEntity } from './entities/registry-provider-platform.entity';
import { RegistryProviderVersionEntity } from './entities/registry-provider-version.entity';
import { RegistryProviderEntity } from './entities/registry-provider.entity';
import { RegistryModuleEntity } from './entities/registry-module.entity';
import { RegistryModuleVersionEntity } from './entities/registry-module-version.entity';
import { ModuleUploadsService } from './modules/module-uploads.service';
import { ModuleVersionsController } from './modules/module-versions.controller';
import { ModuleVersionsRepository } from './modules/module-versions.repository';
import { ModuleVersionsService } from './modules/module-versions.service';
import { RegistryModulesController } from './modules/registry-modules.controller';
import { RegistryModulesRepository } from './modules/registry-modules.repository';
import { RegistryModulesService } from './modules/registry-modules.service';
import { ModuleProtocolController } from './protocol/module-protocol.controller';
import { ModuleProtocolRepository } from './protocol/module-protocol.repository';
import { ModuleProtocolService } from './protocol/module-protocol.service';
import { GpgKeysController } from './gpg-keys/gpg-keys.controller';
import { GpgKeysRepository } from './gpg-keys/gpg-keys.repository';
import { GpgKeysService } from './gpg-keys/gpg-keys.service';
import { DiscoveryController } from './protocol/discovery.controller';
import { ProviderProtocolController } from './protocol/provider-protocol.controller';
import { ProviderProtocolRepository } from './protocol/provider-protocol.repository';
import { ProviderProtocolService } from './protocol/provider-protocol.service';
import { RegistryProvidersController } from './providers/registry-providers.controller';
import { RegistryProvidersRepository } from './providers/registry-providers.repository';
import { RegistryProvidersService } from './providers/registry-providers.service';
import { RegistryLinks } from './registry-links';
import { RegistryNamespaces } from './registry-namespaces';
import { RegistryReadinessService } from './uploads/registry-readiness.service';
import { RegistryUploadsService } from './uploads/registry-uploads.service';
import { ProviderPlatformsController } from './versions/provider-platforms.controller';
import { ProviderPlatformsRepository } from './versions/provider-platforms.repository';
import { ProviderPlatformsService } from './versions/provider-platforms.service';
import { ProviderVersionsController } from './versions/provider-versions.controller';
import { ProviderVersionsRepository } from './versions/provider-versions.repository';
import { ProviderVersionsService } from './versions/provider-versions.service';

/**
 * The private registry: providers, GPG keys, versions and platforms, and modules with their
 * versions (JSON:API), their signed upload and download links, and the consumer-side registry
 * protocols (`providers.v1`, `modules.v1`).
 */
@Module({
  imports: [
    TypeOrmModule.forFeature([
      RegistryProviderEntity,
      RegistryGpgKeyEntity,
      RegistryProviderVersionEntity,
      RegistryProviderPlatformEntity,
      RegistryProviderChecksumEntity,
      RegistryModuleEntity,
      RegistryModuleVersionEntity,
    ]),
    OrganizationsModule,
  ],
  controllers: [
    RegistryProvidersController,
    GpgKeysController,
    ProviderVersionsController,
    ProviderPlatformsController,
    DiscoveryController,
    ProviderProtocolController,
    RegistryModulesController,
    ModuleVersionsController,
    ModuleProtocolController,
  ],
  providers: [
    RegistryLinks,
    RegistryNamespaces,
    RegistryProvidersRepository,
    RegistryProvidersService,
    GpgKeysRepository,
    GpgKeysService,
    ProviderVersionsRepository,
    ProviderVersionsService,
    ProviderPlatformsRepository,
    ProviderPlatformsService,
    RegistryReadinessService,
    RegistryUploadsService,
    ProviderProtocolRepository,
    ProviderProtocolService,
    RegistryModulesRepository,
    RegistryModulesService,
    ModuleVersionsRepository,
    ModuleVersionsService,
    ModuleUploadsService,
    ModuleProtocolRepository,
    ModuleProtocolService,
  ],
  exports: [RegistryProvidersService],
})
export class RegistryModule implements OnModuleInit {
  constructor(private readonly organizationBlobs: OrganizationBlobsRegistry) {}

  /** Deleting an organization removes these files too. */
  onModuleInit(): void {
    this.organizationBlobs.register(idPrefixCollector(RegistryProviderEntity, blobKeys.provider));
    this.organizationBlobs.register(idPrefixCollector(RegistryModuleEntity, blobKeys.module));
  }
}
