import { Global, Module } from '@nestjs/common';
import { join } from 'node:path';
import { AppConfig } from '../config/app-config';
import { BlobStore } from './blob-store';
import { FsBlobStore } from './fs-blob-store';
import { S3BlobStore } from './s3-blob-store';
import { SignedLinks } from './signed-links';
import { UploadRegistry } from './upload-registry';
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
  controllers: [UploadsController],
  providers: [
    { provide: BlobStore, inject: [AppConfig], useFactory: createBlobStore },
    SignedLinks,
    UploadRegistry,
  ],
  exports: [BlobStore, SignedLinks, UploadRegistry],
})
export class StorageModule {}
