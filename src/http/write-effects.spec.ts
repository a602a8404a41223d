import { RequestMethod } from '@nestjs/common';
import { METHOD_METADATA } from '@nestjs/common/constants';
import { AppModule } from '../app.module';
import { appHandlers } from './app-handlers.testing';
import { LEAVES_ACCESS_ALONE } from './write-effects';

const WRITES = new Set([RequestMethod.POST, RequestMethod.PUT, RequestMethod.PATCH, RequestMethod.DELETE]);

describe('write routes', () => {
  const writes = appHandlers(AppModule).filter(({ handler }) =>
    WRITES.has(Reflect.getMetadata(METHOD_METADATA, handler) as RequestMethod),
  );

  it('are found in the application', () => {
    expect(writes.length).toBeGreaterThan(40);
  });

  it('each declare whether they may change access (@ChangesAccess or @LeavesAccessAlone)', () => {
    const undeclared = writes
      .filter(
        ({ controller, handler }) =>
          Reflect.getMetadata(LEAVES_ACCESS_ALONE, handler) === undefined &&
          Reflect.getMetadata(LEAVES_ACCESS_ALONE, controller) === undefined,
      )
      .map(({ controller, name }) => `${controller.name}.${name}`);
    expect(undeclared).toEqual([]);
  });
});
