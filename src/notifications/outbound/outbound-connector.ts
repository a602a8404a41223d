import { Injectable } from '@nestjs/common';
import { request as httpRequest, IncomingMessage } from 'node:http';
import { request as httpsRequest } from 'node:https';
import type { LookupFunction } from 'node:net';
import type { CheckedDestination } from './destination-guard';

/** One POST to a checked destination. */
export interface OutboundRequest {
  headers: Record<string, string>;
  body: string;
  timeoutMs: number;
  /** Of the answer's body, this much is read; the rest is dropped with the connection. */
  maxResponseBytes: number;
}

/** What the destination answered. */
export interface OutboundAnswer {
  status: number;
  /** Lower-cased names, each with its values. */
  headers: Record<string, string[]>;
  body: string;
}

/** The request never got an answer (refused, reset, timed out); the message says which. */
export class OutboundFailure extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'OutboundFailure';
  }
}

/** A lookup that answers the checked address whatever it is asked: no second resolution. */
function pinned(address: string, family: 4 | 6): LookupFunction {
  return (_host, options, callback) => {
    if ((options as { all?: boolean }).all) {
      (callback as unknown as (e: null, a: { address: string; family: number }[]) => void)(null, [
        { address, family },
      ]);
    } else {
      callback(null, address, family);
    }
  };
}

function headersOf(res: IncomingMessage): Record<string, string[]> {
  const out: Record<string, string[]> = {};
  for (const [name, value] of Object.entries(res.headersDistinct)) {
    if (value) out[name.toLowerCase()] = value;
  }
  return out;
}

/**
 * Sends a delivery over HTTP(S) to exactly the address the guard checked (the URL's host still
 * names the Host header and the TLS server name), follows no redirect (a 3xx is an answer like any
 * other), reads at most `maxResponseBytes` of the answer and gives up after `timeoutMs` in all.
 */
@Injectable()
export class OutboundConnector {
  send(destination: CheckedDestination, req: OutboundRequest): Promise<OutboundAnswer> {
    const { url, address, family } = destination;
    const request = url.protocol === 'https:' ? httpsRequest : httpRequest;
    return new Promise<OutboundAnswer>((resolve, reject) => {
      let settled = false;
      const finish = (err: Error | null, answer?: OutboundAnswer): void => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        if (err) reject(err);
        else resolve(answer!);
      };
      const outgoing = request(
        url,
        {
          method: 'POST',
          headers: { ...req.headers, 'content-length': String(Buffer.byteLength(req.body)) },
          lookup: pinned(address, family),
          agent: false,
        },
        (res) => {
          const chunks: Buffer[] = [];
          let bytes = 0;
          const done = (): void => {
            finish(null, {
              status: res.statusCode ?? 0,
              headers: headersOf(res),
              body: Buffer.concat(chunks).subarray(0, req.maxResponseBytes).toString('utf8'),
            });
          };
          res.on('data', (chunk: Buffer) => {
            if (bytes >= req.maxResponseBytes) return;
            chunks.push(chunk);
            bytes += chunk.length;
            if (bytes >= req.maxResponseBytes) {
              done();
              res.destroy();
            }
          });
          res.on('end', done);
          res.on('error', () => done());
        },
      );
      const timer = setTimeout(() => {
        outgoing.destroy(new OutboundFailure(`no answer within ${req.timeoutMs} ms`));
      }, req.timeoutMs);
      outgoing.on('error', (err) =>
        finish(err instanceof OutboundFailure ? err : new OutboundFailure(err.message || String(err))),
      );
      outgoing.end(req.body);
    });
  }
}
