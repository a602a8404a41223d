import type { Response } from 'express';
import { JSONAPI_MEDIA_TYPE } from './media-type';

/**
 * A rendered answer, encoded once: the Express adapter sends it, and the ResponseCache keeps the
 * same bytes to send again (no re-encoding of a 300 KB page per hit, and no large strings for the
 * garbage collector to move).
 */
export class PreparedBody {
  readonly bytes: Buffer;
  /**
   * The whole header value: the JSON:API media type exactly (JSON:API 1.0 forbids parameters on
   * it), other JSON as Express would have set it for a string body.
   */
  readonly contentType: string;

  constructor(mediaType: string, json: string) {
    this.bytes = Buffer.from(json, 'utf8');
    this.contentType = mediaType === JSONAPI_MEDIA_TYPE ? mediaType : `${mediaType}; charset=utf-8`;
  }

  /**
   * Written straight to Node's response: Express's `res.send` would only add what Plinth turns
   * off (ETags) or what a conditional request needs, and such a request still goes through it
   * (`If-None-Match: *` is answered 304 there).
   */
  send(res: Response, status = 200): Response {
    res.statusCode = status;
    res.setHeader('Content-Type', this.contentType);
    const { headers, method } = res.req;
    if (headers['if-none-match'] !== undefined || headers['if-modified-since'] !== undefined) {
      return res.send(this.bytes);
    }
    res.setHeader('Content-Length', this.bytes.length);
    res.end(method === 'HEAD' ? undefined : this.bytes);
    return res;
  }
}
