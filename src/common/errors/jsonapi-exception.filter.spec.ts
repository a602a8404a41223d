import {
  ArgumentsHost,
  BadRequestException,
  InternalServerErrorException,
  Logger,
  NotFoundException,
  ServiceUnavailableException,
} from '@nestjs/common';
import { QueryFailedError } from 'typeorm';
import { errorCodeOf } from '../../observability/http-logging';
import { conflict, DomainError, invalidAttribute, taken, Violations } from './domain-error';
import { JsonApiExceptionFilter } from './jsonapi-exception.filter';

interface Sent {
  status: number;
  type: string;
  body: { errors: Record<string, unknown>[] };
}

function harness(headersSent = false, clientGone = false) {
  const sent: Partial<Sent> = {};
  const res: {
    headersSent: boolean;
    status: jest.Mock;
    setHeader: jest.Mock;
    send: jest.Mock;
    end: jest.Mock;
    destroy: jest.Mock;
  } = {
    headersSent,
    status: jest.fn((s: number) => ((sent.status = s), res)),
    setHeader: jest.fn(
      (name: string, value: string) => (name === 'Content-Type' && (sent.type = value), res),
    ),
    send: jest.fn((b: Buffer) => ((sent.body = JSON.parse(b.toString('utf8')) as Sent['body']), res)),
    end: jest.fn(),
    destroy: jest.fn(),
  };
  const req = { method: 'POST', path: '/api/v2/organizations', socket: { destroyed: clientGone } };
  const host = {
    switchToHttp: () => ({ getResponse: () => res, getRequest: () => req }),
  } as unknown as ArgumentsHost;
  return { host, res, sent: sent as Sent };
}

function queryFailed(driverError: Record<string, unknown>): QueryFailedError {
  return new QueryFailedError(
    'INSERT INTO users (email, password_hash) VALUES (?, ?)',
    ['ann@example.com', 'scrypt$secret'],
    Object.assign(new Error('driver says no'), driverError),
  );
}

describe(JsonApiExceptionFilter.name, () => {
  let sut: JsonApiExceptionFilter;
  let logged: jest.SpyInstance;

  beforeEach(() => {
    sut = new JsonApiExceptionFilter();
    logged = jest.spyOn(Logger.prototype, 'error').mockImplementation(() => undefined);
    jest.spyOn(Logger.prototype, 'warn').mockImplementation(() => undefined);
  });
  afterEach(() => jest.restoreAllMocks());

  const send = (exception: unknown) => {
    const h = harness();
    sut.catch(exception, h.host);
    return h.sent;
  };

  it('writes domain errors as JSON:API error documents with the JSON:API media type', () => {
    const sent = send(invalidAttribute('name', 'has already been taken'));
    expect(sent.status).toBe(422);
    expect(sent.type).toBe('application/vnd.api+json');
    expect(sent.body).toEqual({
      errors: [
        {
          status: '422',
          title: 'invalid attribute',
          detail: 'Name has already been taken',
          source: { pointer: '/data/attributes/name' },
        },
      ],
    });
  });

  it("notes a coded refusal's code for the request's log line", () => {
    const h = harness();
    sut.catch(taken('name'), h.host);
    expect(errorCodeOf(h.res as never)).toBe('NAME_TAKEN');
    const other = harness();
    sut.catch(conflict('The workspace is already locked', 'WORKSPACE_ALREADY_LOCKED'), other.host);
    expect(errorCodeOf(other.res as never)).toBe('WORKSPACE_ALREADY_LOCKED');
    const uncoded = harness();
    sut.catch(invalidAttribute('name', 'is too long'), uncoded.host);
    expect(errorCodeOf(uncoded.res as never)).toBeUndefined();
  });

  it("writes a coded refusal's code on its error object, after the title, and no code member otherwise", () => {
    const sent = send(taken('name'));
    expect(sent.body.errors).toEqual([
      {
        status: '422',
        title: 'invalid attribute',
        code: 'NAME_TAKEN',
        detail: 'Name has already been taken',
        source: { pointer: '/data/attributes/name' },
      },
    ]);
    expect(Object.keys(sent.body.errors[0])).toEqual(['status', 'title', 'code', 'detail', 'source']);
    const conflicted = send(conflict('The workspace is already locked', 'WORKSPACE_ALREADY_LOCKED'));
    expect(Object.keys(conflicted.body.errors[0])).toEqual(['status', 'title', 'code', 'detail']);
    expect(conflicted.body.errors[0].code).toBe('WORKSPACE_ALREADY_LOCKED');
    const uncoded = send(invalidAttribute('name', 'is too long'));
    expect(uncoded.body.errors[0]).not.toHaveProperty('code');
  });

  it('codes each error object of a several-rule refusal by its own item', () => {
    const violations = new Violations().attribute('email', 'is invalid').taken('name');
    let thrown: unknown;
    try {
      violations.throwIfAny();
    } catch (err) {
      thrown = err;
    }
    const sent = send(thrown);
    expect(sent.body.errors.map((e) => e.code)).toEqual([undefined, 'NAME_TAKEN']);
    expect(sent.body.errors[0]).not.toHaveProperty('code');
  });

  it.each([
    ['bad-request', 400, 'bad request'],
    ['unauthorized', 401, 'unauthorized'],
    ['forbidden', 403, 'forbidden'],
    ['not-found', 404, 'not found'],
    ['too-large', 413, 'payload too large'],
    ['invalid', 422, 'invalid attribute'],
    ['rate-limited', 429, 'too many requests'],
    ['unavailable', 503, 'service unavailable'],
  ] as const)('maps a %s domain error to %i "%s"', (kind, status, title) => {
    const sent = send(new DomainError(kind));
    expect(sent.status).toBe(status);
    expect(sent.body).toEqual({ errors: [{ status: String(status), title }] });
  });

  it('names the query parameter at fault as source.parameter', () => {
    const sent = send(new DomainError('bad-request', [{ detail: 'bad include', parameter: 'include' }]));
    expect(sent.body.errors[0].source).toEqual({ parameter: 'include' });
  });

  it.each([
    ['MySQL duplicate entry', { code: 'ER_DUP_ENTRY', errno: 1062 }],
    ['SQLite unique constraint', { code: 'SQLITE_CONSTRAINT_UNIQUE' }],
    ['SQLite primary key', { code: 'SQLITE_CONSTRAINT_PRIMARYKEY' }],
  ])('answers a %s with 422 "has already been taken"', (_, driver) => {
    const sent = send(queryFailed(driver));
    expect(sent.status).toBe(422);
    expect(sent.body).toEqual({
      errors: [{ status: '422', title: 'invalid attribute', detail: 'has already been taken' }],
    });
  });

  it.each([
    ['MySQL missing parent row', { code: 'ER_NO_REFERENCED_ROW_2', errno: 1452 }],
    ['MySQL row still referenced', { code: 'ER_ROW_IS_REFERENCED_2', errno: 1451 }],
    ['SQLite foreign key constraint', { code: 'SQLITE_CONSTRAINT_FOREIGNKEY' }],
  ])('answers a %s with 422 "is invalid"', (_, driver) => {
    const sent = send(queryFailed(driver));
    expect(sent.status).toBe(422);
    expect(sent.body.errors).toEqual([{ status: '422', title: 'invalid attribute', detail: 'is invalid' }]);
  });

  it.each([
    [
      'a refused connection',
      Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:3306'), { code: 'ECONNREFUSED' }),
    ],
    ['a lost connection inside a query', queryFailed({ code: 'PROTOCOL_CONNECTION_LOST' })],
    ['a server gone away', queryFailed({ errno: 2013 })],
  ])('answers %s with 503', (_, err) => {
    const sent = send(err);
    expect(sent.status).toBe(503);
    expect(sent.body.errors).toEqual([
      {
        status: '503',
        title: 'service unavailable',
        detail: 'the database is unavailable; try again shortly',
      },
    ]);
  });

  it.each([
    ['SQLITE_BUSY', 'SQLITE_BUSY'],
    ['a stale snapshot', 'SQLITE_BUSY_SNAPSHOT'],
    ['SQLITE_LOCKED', 'SQLITE_LOCKED'],
  ])('answers SQLite still locked after the busy timeout (%s) with 503 and Retry-After', (_, code) => {
    const h = harness();
    sut.catch(queryFailed({ code }), h.host);
    expect(h.sent.status).toBe(503);
    expect(h.res.setHeader).toHaveBeenCalledWith('Retry-After', '1');
    expect(h.sent.body.errors).toEqual([
      { status: '503', title: 'service unavailable', detail: 'the database is busy; try again shortly' },
    ]);
  });

  it('answers unknown errors with 500 and an id that is logged, and nothing internal', () => {
    const err = queryFailed({ code: 'ER_PARSE_ERROR', errno: 1064 });
    const sent = send(err);
    expect(sent.status).toBe(500);
    const [error] = sent.body.errors;
    expect(error).toEqual({
      id: expect.stringMatching(/^[0-9a-f-]{36}$/),
      status: '500',
      title: 'internal server error',
      detail: `an unexpected error occurred; quote ${error.id as string} when reporting it`,
    });
    const text = JSON.stringify(sent.body);
    for (const secret of ['INSERT', 'password', 'scrypt', 'driver says no', 'stack'])
      expect(text).not.toContain(secret);

    expect(logged).toHaveBeenCalledTimes(1);
    const [fields] = logged.mock.calls[0] as [Record<string, unknown>];
    expect(fields.errorId).toBe(error.id);
    expect(JSON.stringify(fields)).not.toContain('scrypt$secret');
  });

  it('answers thrown non-errors with 500 too', () => {
    expect(send('a string').status).toBe(500);
    expect(send(undefined).status).toBe(500);
  });

  it.each([
    ['entity.parse.failed', 400, 400, 'request body is not valid JSON'],
    ['entity.too.large', 413, 413, 'request body is too large'],
    ['charset.unsupported', 415, 415, 'request body encoding or charset is not supported'],
    ['request.aborted', 400, 400, 'request body could not be read'],
    ['request.size.invalid', 400, 400, 'request body could not be read'],
  ])('answers the body-parser error %s (%i) with %i', (type, status, expected, detail) => {
    const err = Object.assign(new SyntaxError('Unexpected token p in JSON at position 1: {pass'), {
      type,
      status,
    });
    const sent = send(err);
    expect(sent.status).toBe(expected);
    expect(sent.body.errors).toEqual([expect.objectContaining({ status: String(expected), detail })]);
  });

  it('does not quote the framework’s own messages', () => {
    const notFound = send(new NotFoundException('Cannot GET /api/v2/secret-path'));
    expect(notFound.body).toEqual({ errors: [{ status: '404', title: 'not found' }] });
    const bad = send(new BadRequestException('Unexpected token s in JSON: {secret'));
    expect(bad.body).toEqual({
      errors: [{ status: '400', title: 'bad request', detail: 'the request is malformed' }],
    });
  });

  it('answers an unhealthy readiness check with 503, other framework 5xx with 500', () => {
    expect(send(new ServiceUnavailableException({ status: 'error' })).status).toBe(503);
    expect(send(new InternalServerErrorException('boom')).status).toBe(500);
  });

  it('only ends a response whose headers are already sent', () => {
    const h = harness(true);
    sut.catch(new Error('late'), h.host);
    expect(h.res.end).toHaveBeenCalled();
    expect(h.res.send).not.toHaveBeenCalled();
  });

  it('neither logs nor answers a stream error caused by a client that closed the connection', () => {
    const h = harness(true, true);
    sut.catch(Object.assign(new Error('Premature close'), { code: 'ERR_STREAM_PREMATURE_CLOSE' }), h.host);
    expect(h.res.destroy).toHaveBeenCalled();
    expect(h.res.end).not.toHaveBeenCalled();
    expect(logged).not.toHaveBeenCalled();
  });

  it('still reports the same stream error while the client is connected', () => {
    const h = harness(true, false);
    sut.catch(Object.assign(new Error('Premature close'), { code: 'ERR_STREAM_PREMATURE_CLOSE' }), h.host);
    expect(logged).toHaveBeenCalledTimes(1);
  });
});
