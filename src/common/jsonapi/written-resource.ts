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

/** What a write acted on, in the audit trail's terms, where neither its route nor its answer says. */
export interface WriteTarget {
  resourceType: string;
  resourceId: string;
  action: string;
}

const targets = new WeakMap<object, WriteTarget>();

/**
 * Noted by a route whose path cannot name its resource: an upload link's path holds only its
 * signed token, which the trail never keeps, while the token's claims name the resource.
 */
export function noteWriteTarget(req: object, target: WriteTarget): void {
  targets.set(req, target);
}

export function writeTargetOf(req: object): WriteTarget | undefined {
  return targets.get(req);
}
