import { Controller, Get, Head, HttpCode, Put, Req, Res } from '@nestjs/common';
import { ApiBody, ApiConsumes, ApiOperation, ApiQuery, ApiResponse, ApiTags } from '@nestjs/swagger';
import type { Request, Response } from 'express';
import { pipeline } from 'node:stream/promises';
import { badRequest, notFound } from '../common/errors/domain-error';
import { ApiErrors } from '../common/jsonapi/openapi';
import { requestContext } from '../common/request-context';
import { InspectionsBusy } from './archive-inspector';
import { BlobStore, tooLarge } from './blob-store';
import { SignedLinkClaims } from './signed-link.strategy';
import { LinkClaims } from './signed-links';
import { UploadRegistry } from './upload-registry';
import { Endpoint } from '../http/endpoint';

/**
 * Signed capability links. The token in the path is the credential: no Authorization header is
 * needed (one that is sent is ignored). Bodies stream to the blob store; nothing is buffered whole.
 */
@ApiTags('uploads')
@Controller('uploads')
export class UploadsController {
  constructor(
    private readonly registry: UploadRegistry,
    private readonly blobs: BlobStore,
  ) {}

  @Put(':token')
  @Endpoint({ auth: 'signed-link', effect: 'leaves-access-alone' })
  @HttpCode(200)
  @ApiOperation({
    summary: 'Upload the raw bytes a signed upload link stands for',
    description:
      'The token in the path is the credential (no Authorization header). The body streams to storage; ' +
      'a link takes one upload (409 after that), expires (410) and has a size cap (413). An archive that ' +
      'cannot be inspected now (its organization has too many inspections under way: 429; the server has ' +
      "too many waiting: 503) is refused with `Retry-After`, and the link stays usable. A run's log " +
      'link (`links.logs` of an executor job) appends: `?offset=N` says where the chunk starts in the ' +
      'log (default 0); bytes the log already has are acknowledged again, a chunk past its end is a 409.',
  })
  @ApiConsumes('application/octet-stream')
  @ApiBody({ required: true, schema: { type: 'string', format: 'binary' } })
  @ApiResponse({ status: 200, description: 'Received; no body' })
  @ApiQuery({
    name: 'offset',
    required: false,
    schema: { type: 'integer', minimum: 0 },
    description: 'Log links only: the byte of the log this chunk starts at',
  })
  @ApiErrors(400, 404, 409, 410, 413, 422, 429, 503)
  async upload(@SignedLinkClaims() claims: LinkClaims, @Req() req: Request): Promise<void> {
    requestContext(req).writeTarget = {
      resourceType: 'uploads',
      resourceId: claims.resourceId,
      action: claims.purpose,
    };
    const handler = this.registry.upload(claims.purpose);
    if (!handler) throw notFound();
    const declared = req.headers['content-length'] ? Number(req.headers['content-length']) : undefined;
    if (declared !== undefined && declared > handler.maxBytes()) throw tooLarge(handler.maxBytes());
    try {
      await handler.receive(claims.resourceId, req, { contentLength: declared, query: singleQuery(req) });
    } catch (err) {
      if (err instanceof InspectionsBusy) req.res?.setHeader('Retry-After', String(err.retryAfterSeconds));
      throw err;
    }
  }

  @Get(':token')
  @Endpoint({ auth: 'signed-link' })
  @ApiOperation({
    summary: 'Download the file a signed download link stands for',
    description:
      'The token in the path is the credential (no Authorization header); 410 once it expired. A log ' +
      "link (a plan's or apply's `log-read-url`) answers the log by byte range: `offset` and `limit` " +
      '(both optional; the whole log without them), framed with STX (0x02) at its start and ETX (0x03) ' +
      'after its end once the phase has ended; while it runs, what exists so far (possibly nothing).',
  })
  @ApiQuery({
    name: 'offset',
    required: false,
    schema: { type: 'integer', minimum: 0 },
    description: 'Log links only: bytes of the framed log already read (the STX byte counts)',
  })
  @ApiQuery({
    name: 'limit',
    required: false,
    schema: { type: 'integer', minimum: 0 },
    description: 'Log links only: the most bytes to answer',
  })
  @ApiResponse({
    status: 200,
    description:
      'The file, with Content-Disposition and Content-Length; a plan in JSON is sent as application/json, a log range as text/plain, anything else as application/octet-stream',
    content: {
      'application/octet-stream': { schema: { type: 'string', format: 'binary' } },
      'application/json': {
        schema: { type: 'object', description: 'a plan in JSON, as the executor uploaded it' },
      },
      'text/plain': { schema: { type: 'string', format: 'binary', description: 'raw bytes of a log' } },
    },
  })
  @ApiErrors(400, 404, 410)
  async download(
    @SignedLinkClaims() claims: LinkClaims,
    @Req() req: Request,
    @Res() res: Response,
  ): Promise<void> {
    const stream = this.registry.stream(claims.purpose);
    if (stream) {
      const query = singleQuery(req);
      const range = { offset: byteCount(query, 'offset') ?? 0, limit: byteCount(query, 'limit') };
      const { bytes, contentType } = await stream.read(claims.resourceId, range);
      res.status(200);
      res.setHeader('Content-Type', contentType);
      res.setHeader('Content-Length', String(bytes.length));
      res.setHeader('Cache-Control', 'no-store');
      res.end(bytes);
      return;
    }
    const target = await this.target(claims, res);
    await pipeline(await (target.served ? target.served.open() : this.blobs.get(target.key)), res);
  }

  @Head(':token')
  @Endpoint({ auth: 'signed-link' })
  @ApiOperation({
    summary: 'Headers of a signed download (some consumer tools ask first)',
    description: 'The headers GET would answer with, without the body.',
  })
  @ApiResponse({ status: 200, description: 'The download headers; no body' })
  @ApiErrors(404, 410)
  async head(@SignedLinkClaims() claims: LinkClaims, @Res() res: Response): Promise<void> {
    if (this.registry.stream(claims.purpose)) {
      // A stream's length changes while it is read: a HEAD says only how a GET would answer.
      res.status(200).setHeader('Content-Type', 'text/plain');
      res.setHeader('Cache-Control', 'no-store');
    } else {
      await this.target(claims, res);
    }
    res.end();
  }

  private async target(claims: LinkClaims, res: Response) {
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

/**
 * The query string, each parameter once. A parameter given twice reads as empty, so a handler
 * that reads it refuses it rather than guessing; handlers that read none are unaffected.
 */
function singleQuery(req: Request): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(req.query)) out[name] = typeof value === 'string' ? value : '';
  return out;
}

/** A non-negative whole number of bytes from the query, or undefined when absent. */
function byteCount(query: Record<string, string>, name: string): number | undefined {
  const value = query[name];
  if (value === undefined) return undefined;
  if (!/^\d{1,15}$/.test(value)) {
    throw badRequest(`${name} must be a whole number of bytes, given once`, name);
  }
  return Number(value);
}
