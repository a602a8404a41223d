import pino from 'pino';
import { PinoNestLogger } from './http-logging';

describe('PinoNestLogger', () => {
  const capture = () => {
    const lines: Record<string, unknown>[] = [];
    const stream = { write: (s: string) => lines.push(JSON.parse(s) as Record<string, unknown>) };
    return { lines, logger: new PinoNestLogger(pino({ level: 'info' }, stream)) };
  };

  it('writes Nest log calls as JSON lines with their context', () => {
    const { lines, logger } = capture();
    logger.log('ready', 'Bootstrap');
    logger.warn({ path: '/x' }, 'Errors');
    logger.error('boom', 'Error: boom\n    at f', 'Errors');
    logger.error({ errorId: 'e1' }, 'unhandled error e1', 'Errors');
    logger.debug('not written', 'Bootstrap');
    expect(lines).toEqual([
      expect.objectContaining({ level: 30, msg: 'ready', context: 'Bootstrap' }),
      expect.objectContaining({ level: 40, path: '/x', context: 'Errors' }),
      expect.objectContaining({ level: 50, msg: 'boom', stack: 'Error: boom\n    at f', context: 'Errors' }),
      expect.objectContaining({ level: 50, msg: 'unhandled error e1', errorId: 'e1', context: 'Errors' }),
    ]);
  });

  it("keeps Nest's per-module and per-route start-up lines to debug", () => {
    const { lines, logger } = capture();
    logger.log('AppModule dependencies initialized', 'InstanceLoader');
    logger.log('PolicySetsController {/api/v2}:', 'RoutesResolver');
    logger.log('Mapped {/api/v2/ping, GET} route', 'RouterExplorer');
    logger.log('Nest application successfully started', 'NestApplication');
    expect(lines).toEqual([
      expect.objectContaining({ level: 30, msg: 'Nest application successfully started' }),
    ]);
  });

  it('keeps an error object as err', () => {
    const { lines, logger } = capture();
    logger.error(new Error('gone'));
    expect(lines[0]).toMatchObject({ level: 50, msg: 'gone', err: { message: 'gone', type: 'Error' } });
  });
});
