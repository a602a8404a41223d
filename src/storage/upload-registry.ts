import { Injectable } from '@nestjs/common';
import { Readable } from 'node:stream';
import { EntityManager } from 'typeorm';

export interface UploadHandler {
  /** Stores the raw body for `resourceId` and flips the resource's state; throws domain errors to refuse. */
  receive(resourceId: string, body: Readable, meta: { contentLength?: number }): Promise<void>;
  /** Bytes accepted at most; a declared Content-Length above it is refused before reading. */
  maxBytes(): number;
  /**
   * The upload of `resourceId` died with its process (its lease expired and its blob is deleted):
   * undo what the upload had marked, in the sweep's transaction.
   */
  recover?(manager: EntityManager, resourceId: string): Promise<void>;
}

export interface DownloadTarget {
  key: string;
  filename: string;
  contentType: string;
  /**
   * For files stored in another form than they are served (encrypted): their bytes as served, and
   * how many there are. Without it the blob at `key` is sent as it is.
   */
  served?: { size: number; open(): Promise<Readable> };
}

export interface DownloadHandler {
  locate(resourceId: string): Promise<DownloadTarget>;
}

/** Modules register what their signed links do; the /uploads routes dispatch on the link's purpose. */
@Injectable()
export class UploadRegistry {
  private readonly uploads = new Map<string, UploadHandler>();
  private readonly downloads = new Map<string, DownloadHandler>();

  registerUpload(purpose: string, handler: UploadHandler): void {
    if (this.uploads.has(purpose)) throw new Error(`upload purpose ${purpose} registered twice`);
    this.uploads.set(purpose, handler);
  }

  registerDownload(purpose: string, handler: DownloadHandler): void {
    if (this.downloads.has(purpose)) throw new Error(`download purpose ${purpose} registered twice`);
    this.downloads.set(purpose, handler);
  }

  upload(purpose: string): UploadHandler | undefined {
    return this.uploads.get(purpose);
  }

  download(purpose: string): DownloadHandler | undefined {
    return this.downloads.get(purpose);
  }
}
