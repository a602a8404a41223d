import { IncomingHttpHeaders, request } from 'node:http';

export interface RawRequest {
  method?: string;
  path: string;
  headers?: Record<string, string>;
  body?: string | Buffer;
  /** Source address on the loopback network (127.0.0.2, …), to act as a distinct client. */
  localAddress?: string;
  /** A request that has not been answered by then fails as hung. */
  timeoutMs?: number;
}

export interface RawResponse {
  status: number;
  headers: IncomingHttpHeaders;
  text: string;
}

export class HungRequestError extends Error {}

/** A bare HTTP request: any bytes, any headers, a chosen source address, a hard deadline. */
export function send(origin: string, req: RawRequest): Promise<RawResponse> {
  const url = new URL(origin);
  const timeoutMs = req.timeoutMs ?? 10_000;
  return new Promise((resolve, reject) => {
    const r = request(
      {
        host: url.hostname,
        port: url.port,
        method: req.method ?? 'GET',
        path: req.path,
        headers: req.headers,
        localAddress: req.localAddress,
        agent: false,
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => {
          clearTimeout(timer);
          resolve({
            status: res.statusCode ?? 0,
            headers: res.headers,
            text: Buffer.concat(chunks).toString(),
          });
        });
        res.on('error', reject);
      },
    );
    const timer = setTimeout(() => {
      r.destroy();
      reject(new HungRequestError(`${req.method ?? 'GET'} ${req.path} got no answer within ${timeoutMs} ms`));
    }, timeoutMs);
    r.on('error', (err) => {
      clearTimeout(timer);
      reject(err);
    });
    r.end(req.body);
  });
}
