import { STATUS_CODES, type Server } from 'node:http';
import type { Duplex } from 'node:stream';
import { errorTitle } from '../common/errors/jsonapi-exception.filter';
import { JSONAPI_MEDIA_TYPE } from '../common/jsonapi/media-type';

/** What Node's parser refusals mean to a client; the parser's own message quotes the input. */
const ANSWERS: Record<string, { status: number; detail: string }> = {
  HPE_HEADER_OVERFLOW: { status: 431, detail: 'the request line and headers are too large' },
  HPE_CHUNK_EXTENSIONS_OVERFLOW: { status: 413, detail: 'the chunk extensions are too large' },
  ERR_HTTP_REQUEST_TIMEOUT: { status: 408, detail: 'the request was not received in time' },
};
const UNPARSABLE = { status: 400, detail: 'the request could not be parsed' };

/** The raw HTTP answer for a request Node refused before any handler saw it. */
export function clientErrorResponse(code: string | undefined): string {
  const { status, detail } = (code !== undefined && ANSWERS[code]) || UNPARSABLE;
  const body = JSON.stringify({ errors: [{ status: String(status), title: errorTitle(status), detail }] });
  return [
    `HTTP/1.1 ${status} ${STATUS_CODES[status]}`,
    `Content-Type: ${JSONAPI_MEDIA_TYPE}`,
    `Content-Length: ${Buffer.byteLength(body)}`,
    'Connection: close',
    '',
    body,
  ].join('\r\n');
}

/** Node's private link from a socket to the response in flight on it. */
interface HttpSocket extends Duplex {
  _httpMessage?: { headersSent?: boolean };
}

/**
 * Requests the HTTP parser refuses (a request line or headers over Node's 16 KB, a malformed
 * request) get a JSON:API error document instead of Node's bare status line. As Node does, nothing
 * is written once a response on the same socket has started: that would corrupt it.
 */
export function answerClientErrors(server: Server): void {
  server.on('clientError', (err: NodeJS.ErrnoException, socket: HttpSocket) => {
    if (err.code === 'ECONNRESET' || !socket.writable || socket._httpMessage?.headersSent) {
      socket.destroy();
      return;
    }
    socket.end(clientErrorResponse(err.code));
  });
}
