import { RequestMethod } from '@nestjs/common';
import { METHOD_METADATA } from '@nestjs/common/constants';
import { AppModule } from '../app.module';
import { appHandlers } from './app-handlers.testing';
import { ENDPOINT, EndpointOptions } from './endpoint';
import { LEAVES_ACCESS_ALONE } from './write-effects';

const WRITES = new Set([RequestMethod.POST, RequestMethod.PUT, RequestMethod.PATCH, RequestMethod.DELETE]);

describe('write routes', () => {
  const writes = appHandlers(AppModule).filter(({ handler }) =>
    WRITES.has(Reflect.getMetadata(METHOD_METADATA, handler) as RequestMethod),
  );

  it('are found in the application', () => {
    expect(writes.length).toBeGreaterThan(40);
  });

  it("each declare whether they may change access (their Endpoint's effect)", () => {
    const undeclared = writes
      .filter(({ handler }) => {
        const endpoint = Reflect.getMetadata(ENDPOINT, handler) as EndpointOptions | undefined;
        return endpoint?.effect === undefined;
      })
      .map(({ controller, name }) => `${controller.name}.${name}`);
    expect(undeclared).toEqual([]);
  });

  it('carry the effect where the change epochs read it, on the route and never on its controller', () => {
    for (const { controller, handler } of writes) {
      const { effect } = Reflect.getMetadata(ENDPOINT, handler) as EndpointOptions;
      expect(Reflect.getMetadata(LEAVES_ACCESS_ALONE, handler)).toBe(effect === 'leaves-access-alone');
      expect(Reflect.getMetadata(LEAVES_ACCESS_ALONE, controller)).toBeUndefined();
    }
  });
});
