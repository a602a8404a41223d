import { ApiExtension, OpenAPIObject } from '@nestjs/swagger';

const EXTENSION = 'x-self-hosted-only';

/**
 * On a controller whose routes exist only on a self-hosted installation (a cloud one answers 404
 * there): the OpenAPI document of a cloud installation leaves its operations out.
 */
export const SelfHostedOnlyDocs = (): ClassDecorator & MethodDecorator => ApiExtension(EXTENSION, true);

/** Removes the operations marked SelfHostedOnlyDocs, and paths left with none. */
export function dropSelfHostedOnly(doc: OpenAPIObject): void {
  for (const [path, item] of Object.entries(doc.paths)) {
    const entry = item as Record<string, unknown>;
    for (const [method, operation] of Object.entries(entry)) {
      if ((operation as Record<string, unknown> | undefined)?.[EXTENSION] === true) delete entry[method];
    }
    if (!Object.values(entry).some((op) => typeof op === 'object' && op !== null && 'responses' in op)) {
      delete doc.paths[path];
    }
  }
}
