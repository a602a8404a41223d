import type { ResourceIdentifier } from './document';

const written = new WeakMap<object, ResourceIdentifier>();

/**
 * The resource a write answered with (the adapter notes it as it writes the document), so the
 * audit trail can name what a create made without reading any body.
 */
export function noteWrittenResource(req: object, resource: ResourceIdentifier): void {
  written.set(req, resource);
}

export function writtenResourceOf(req: object): ResourceIdentifier | undefined {
  return written.get(req);
}
