import { Global, Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { join } from 'node:path';
import { AppConfig } from '../config/app-config';
import { BlobStore } from './blob-store';
import { FsBlobStore } from './fs-blob-store';
import { S3BlobStore } from './s3-blob-store';
import { SignedLinks } from './signed-links';
import { UploadLeaseEntity } from './entities/upload-lease.entity';
import { UploadLeases } from './upload-leases';
import { UploadLeasesRepository } from './upload-leases.repository';
import { UploadRegistry } from './upload-registry';
import { UploadSweeper } from './upload-sweeper';
import { UploadsController } from './uploads.controller';

export function createBlobStore(config: AppConfig): BlobStore {
  switch (config.storageDriver) {
    case 'fs':
      return new FsBlobStore(join(config.dataDir, 'blobs'));
    case 's3':
      return new S3BlobStore({
        bucket: config.s3Bucket!,
        region: config.s3Region,
        endpoint: config.s3Endpoint,
        forcePathStyle: config.s3ForcePathStyle,
        spoolDir: join(config.dataDir, 'spool'),
      });
  }
}

@Global()
@Module({
  imports: [TypeOrmModule.forFeature([UploadLeaseEntity])],
  controllers: [UploadsController],
  providers: [
    { provide: BlobStore, inject: [AppConfig], useFactory: createBlobStore },
    SignedLinks,
    UploadRegistry,
    UploadLeasesRepository,
    UploadLeases,
    UploadSweeper,
  ],
  exports: [BlobStore, SignedLinks, UploadRegistry, UploadLeases],
})
export class StorageModule {}
