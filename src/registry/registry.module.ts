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
import { RegistryReadinessService } from './uploads/registry-readiness.service';
import { RegistryUploadsService } from './uploads/registry-uploads.service';
import { ProviderPlatformsController } from './versions/provider-platforms.controller';
import { ProviderPlatformsRepository } from './versions/provider-platforms.repository';
import { ProviderPlatformsService } from './versions/provider-platforms.service';
import { ProviderVersionsController } from './versions/provider-versions.controller';
import { ProviderVersionsRepository } from './versions/provider-versions.repository';
import { ProviderVersionsService } from './versions/provider-versions.service';

/**
 * The private provider registry: providers, GPG keys, versions and platforms (JSON:API), their
 * signed upload and download links, and the consumer-side registry protocol.
 */
@Module({
  imports: [
    TypeOrmModule.forFeature([
      RegistryProviderEntity,
      RegistryGpgKeyEntity,
      RegistryProviderVersionEntity,
      RegistryProviderPlatformEntity,
      RegistryProviderChecksumEntity,
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
  ],
  providers: [
    RegistryLinks,
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
  ],
  exports: [RegistryProvidersService],
})
export class RegistryModule implements OnModuleInit {
  constructor(private readonly organizationBlobs: OrganizationBlobsRegistry) {}

  /** Deleting an organization removes these files too. */
  onModuleInit(): void {
    this.organizationBlobs.register(idPrefixCollector(RegistryProviderEntity, blobKeys.provider));
  }
}
