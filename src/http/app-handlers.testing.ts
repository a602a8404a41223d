import { Type } from '@nestjs/common';
import { MODULE_METADATA } from '@nestjs/common/constants';

type ModuleRef = Type | { module: Type; imports?: ModuleRef[]; controllers?: Type[] };

/** One route handler of the application, for specs that check every route declares something. */
export interface AppHandler {
  controller: Type;
  name: string;
  handler: object;
}

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

/** Every handler method of every controller reachable from `root` (each controller once). */
export function appHandlers(root: ModuleRef): AppHandler[] {
  return [...new Set(controllersOf(root))].flatMap((controller) => {
    const proto = controller.prototype as Record<string, unknown>;
    return Object.getOwnPropertyNames(proto)
      .filter((name) => name !== 'constructor' && typeof proto[name] === 'function')
      .map((name) => ({ controller, name, handler: proto[name] as object }));
  });
}
