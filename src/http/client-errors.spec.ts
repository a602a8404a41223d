import { clientErrorResponse } from './client-errors';

const parse = (raw: string) => {
  const [head, body] = raw.split('\r\n\r\n');
  return { head: head.split('\r\n'), body: JSON.parse(body) as unknown, length: Buffer.byteLength(body) };
};

describe('clientErrorResponse', () => {
  it('answers an oversized request line with a JSON:API 431 that closes the connection', () => {
    const { head, body, length } = parse(clientErrorResponse('HPE_HEADER_OVERFLOW'));
    expect(head).toEqual([
      'HTTP/1.1 431 Request Header Fields Too Large',
      'Content-Type: application/vnd.api+json',
      `Content-Length: ${length}`,
      'Connection: close',
    ]);
    expect(body).toEqual({
      errors: [
        {
          status: '431',
          title: 'request header fields too large',
          detail: 'the request line and headers are too large',
        },
      ],
    });
  });

  it.each([
    ['ERR_HTTP_REQUEST_TIMEOUT', 408],
    ['HPE_INVALID_METHOD', 400],
    [undefined, 400],
  ])('answers %s with %d', (code, status) => {
    expect(parse(clientErrorResponse(code)).head[0]).toMatch(new RegExp(`^HTTP/1\\.1 ${status} `));
  });
});
