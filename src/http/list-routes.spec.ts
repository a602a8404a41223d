import { Type } from '@nestjs/common';
import { MODULE_METADATA } from '@nestjs/common/constants';
import { AppModule } from '../app.module';
import { LIST_ROUTE } from '../common/jsonapi/openapi';
import { SORTABLE } from '../common/jsonapi/sort';

type ModuleRef = Type | { module: Type; imports?: ModuleRef[]; controllers?: Type[] };

function controllersOf(root: ModuleRef, seen = new Set<Type>()): Type[] {
  const module = 'module' in root ? root.module : root;
  if (seen.has(module)) return [];
  seen.add(module);
  const meta = (key: string): unknown[] => (Reflect.getMetadata(key, module) as unknown[] | undefined) ?? [];
  const dynamic = 'module' in root ? root : { imports: [], controllers: [] };
  const controllers = [...meta(MODULE_METADATA.CONTROLLERS), ...(dynamic.controllers ?? [])] as Type[];
  const imports = [...meta(MODULE_METADATA.IMPORTS), ...(dynamic.imports ?? [])] as ModuleRef[];
  return [...controllers, ...imports.filter(Boolean).flatMap((m) => controllersOf(m, seen))];
}

function listRoutes(controller: Type): { name: string; handler: object }[] {
  const proto = controller.prototype as Record<string, unknown>;
  return Object.getOwnPropertyNames(proto)
    .filter((name) => name !== 'constructor' && typeof proto[name] === 'function')
    .map((name) => ({ name, handler: proto[name] as object }))
    .filter(({ handler }) => Reflect.getMetadata(LIST_ROUTE, handler) === true);
}

describe('list routes', () => {
  const controllers = [...new Set(controllersOf(AppModule))];
  const lists = controllers.flatMap((c) => listRoutes(c).map((r) => ({ ...r, controller: c.name })));

  it('are found in the application', () => {
    expect(lists.length).toBeGreaterThan(20);
  });

  it('each declare their sort fields (@Sortable), documented in OpenAPI (docs/architecture.md)', () => {
    const undeclared = lists
      .filter(({ handler }) => Reflect.getMetadata(SORTABLE, handler) === undefined)
      .map(({ controller, name }) => `${controller}.${name}`);
    expect(undeclared).toEqual([]);
  });
});
