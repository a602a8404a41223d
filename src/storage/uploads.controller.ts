import { Controller, Get, Head, HttpCode, Param, Put, Req, Res } from '@nestjs/common';
import { ApiBody, ApiConsumes, ApiOperation, ApiResponse, ApiTags } from '@nestjs/swagger';
import type { Request, Response } from 'express';
import { pipeline } from 'node:stream/promises';
import { Public } from '../common/auth/public.decorator';
import { notFound } from '../common/errors/domain-error';
import { ApiErrors } from '../common/jsonapi/openapi';
import { noteWriteTarget } from '../common/jsonapi/written-resource';
import { InspectionsBusy } from './archive-inspector';
import { BlobStore, tooLarge } from './blob-store';
import { SignedLinks } from './signed-links';
import { UploadRegistry } from './upload-registry';
import { LeavesAccessAlone } from '../http/write-effects';
import { PublicDocs } from '../http/openapi-document';

/**
 * Signed capability links. The token in the path is the credential: no Authorization header is
 * needed (one that is sent is ignored). Bodies stream to the blob store; nothing is buffered whole.
 */
@ApiTags('uploads')
@Public()
@PublicDocs()
@LeavesAccessAlone()
@Controller('uploads')
export class UploadsController {
  constructor(
    private readonly links: SignedLinks,
    private readonly registry: UploadRegistry,
    private readonly blobs: BlobStore,
  ) {}

  @Put(':token')
  @HttpCode(200)
  @ApiOperation({
    summary: 'Upload the raw bytes a signed upload link stands for',
    description:
      'The token in the path is the credential (no Authorization header). The body streams to storage; ' +
      'a link takes one upload (409 after that), expires (410) and has a size cap (413). An archive that ' +
      'cannot be inspected now (its organization has too many inspections under way: 429; the server has ' +
      'too many waiting: 503) is refused with `Retry-After`, and the link stays usable.',
  })
  @ApiConsumes('application/octet-stream')
  @ApiBody({ required: true, schema: { type: 'string', format: 'binary' } })
  @ApiResponse({ status: 200, description: 'Received; no body' })
  @ApiErrors(404, 409, 410, 413, 422, 429, 503)
  async upload(@Param('token') token: string, @Req() req: Request): Promise<void> {
    const claims = this.links.verify(token);
    noteWriteTarget(req, { resourceType: 'uploads', resourceId: claims.resourceId, action: claims.purpose });
    const handler = this.registry.upload(claims.purpose);
    if (!handler) throw notFound();
    const declared = req.headers['content-length'] ? Number(req.headers['content-length']) : undefined;
    if (declared !== undefined && declared > handler.maxBytes()) throw tooLarge(handler.maxBytes());
    try {
      await handler.receive(claims.resourceId, req, { contentLength: declared });
    } catch (err) {
      if (err instanceof InspectionsBusy) req.res?.setHeader('Retry-After', String(err.retryAfterSeconds));
      throw err;
    }
  }

  @Get(':token')
  @ApiOperation({
    summary: 'Download the file a signed download link stands for',
    description: 'The token in the path is the credential (no Authorization header); 410 once it expired.',
  })
  @ApiResponse({
    status: 200,
    description:
      'The file, with Content-Disposition and Content-Length; a plan in JSON is sent as application/json, anything else as application/octet-stream',
    content: {
      'application/octet-stream': { schema: { type: 'string', format: 'binary' } },
      'application/json': {
        schema: { type: 'object', description: 'a plan in JSON, as the executor uploaded it' },
      },
    },
  })
  @ApiErrors(404, 410)
  async download(@Param('token') token: string, @Res() res: Response): Promise<void> {
    const target = await this.target(token, res);
    await pipeline(await (target.served ? target.served.open() : this.blobs.get(target.key)), res);
  }

  @Head(':token')
  @ApiOperation({
    summary: 'Headers of a signed download (some consumer tools ask first)',
    description: 'The headers GET would answer with, without the body.',
  })
  @ApiResponse({ status: 200, description: 'The download headers; no body' })
  @ApiErrors(404, 410)
  async head(@Param('token') token: string, @Res() res: Response): Promise<void> {
    await this.target(token, res);
    res.end();
  }

  private async target(token: string, res: Response) {
    const claims = this.links.verify(token);
    const handler = this.registry.download(claims.purpose);
    if (!handler) throw notFound();
    const target = await handler.locate(claims.resourceId);
    const stat = await this.blobs.stat(target.key);
    if (!stat) throw notFound();
    const size = target.served?.size ?? stat.size;
    res.status(200);
    // RFC 6266: an ASCII fallback plus `filename*` (RFC 5987) for names outside ISO-8859-1 or with
    // control characters, which a plain quoted header value cannot carry.
    res.attachment(target.filename);
    res.setHeader('Content-Type', target.contentType);
    res.setHeader('Content-Length', String(size));
    res.setHeader('Cache-Control', 'private, max-age=0');
    return target;
  }
}
