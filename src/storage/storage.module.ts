import { Global, Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { join } from 'node:path';
import { AppConfig } from '../config/app-config';
import { ArchiveInspector } from './archive-inspector';
import { BlobStore } from './blob-store';
import { FsBlobStore } from './fs-blob-store';
import { SignedLinkStrategy } from './signed-link.strategy';
import { SignedLinks } from './signed-links';
import { UploadLeaseEntity } from './entities/upload-lease.entity';
import { UploadLeases } from './upload-leases';
import { UploadLeasesRepository } from './upload-leases.repository';
import { UploadRegistry } from './upload-registry';
import { UploadSweeper } from './upload-sweeper';
import { UploadsController } from './uploads.controller';

/**
 * The configured store. The S3 client (about a megabyte of code with its dependencies) is loaded
 * only by installations that use it.
 */
export async function createBlobStore(config: AppConfig): Promise<BlobStore> {
  switch (config.storageDriver) {
    case 'fs':
      return new FsBlobStore(join(config.dataDir, 'blobs'));
    case 's3': {
      const { S3BlobStore } = await import('./s3-blob-store');
      return new S3BlobStore({
        bucket: config.s3Bucket!,
        region: config.s3Region,
        endpoint: config.s3Endpoint,
        forcePathStyle: config.s3ForcePathStyle,
        spoolDir: join(config.dataDir, 'spool'),
      });
    }
  }
}

@Global()
@Module({
  imports: [TypeOrmModule.forFeature([UploadLeaseEntity])],
  controllers: [UploadsController],
  providers: [
    { provide: BlobStore, inject: [AppConfig], useFactory: createBlobStore },
    {
      provide: ArchiveInspector,
      inject: [AppConfig],
      useFactory: (config: AppConfig) =>
        new ArchiveInspector({
          workers: config.archiveInspectionWorkers,
          perOwner: config.archiveInspectionsPerOrganization,
          waiting: config.archiveInspectionQueue,
        }),
    },
    SignedLinks,
    SignedLinkStrategy,
    UploadRegistry,
    UploadLeasesRepository,
    UploadLeases,
    UploadSweeper,
  ],
  exports: [ArchiveInspector, BlobStore, SignedLinks, UploadRegistry, UploadLeases],
})
export class StorageModule {}
