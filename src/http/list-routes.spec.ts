import { AppModule } from '../app.module';
import { LIST_ROUTE } from '../common/jsonapi/openapi';
import { SORTABLE } from '../common/jsonapi/sort';
import { appHandlers } from './app-handlers.testing';

describe('list routes', () => {
  const lists = appHandlers(AppModule).filter(
    ({ handler }) => Reflect.getMetadata(LIST_ROUTE, handler) === true,
  );

  it('are found in the application', () => {
    expect(lists.length).toBeGreaterThan(20);
  });

  it('each declare their sort fields (@Sortable), documented in OpenAPI (docs/architecture.md)', () => {
    const undeclared = lists
      .filter(({ handler }) => Reflect.getMetadata(SORTABLE, handler) === undefined)
      .map(({ controller, name }) => `${controller.name}.${name}`);
    expect(undeclared).toEqual([]);
  });
});
