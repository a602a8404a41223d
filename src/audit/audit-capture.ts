import type { ResourceIdentifier } from '../common/jsonapi/document';

/** What a write did, in the trail's terms: a resource type, its id when known, and an action. */
export interface WriteDescription {
  resourceType: string;
  resourceId: string | null;
  action: string;
}

/** Path prefixes that say nothing about the resource. */
const PREFIXES = [
  ['api', 'v2'],
  ['api', 'registry', 'v1'],
];

/** The executor protocol: every write there is an action, named by the route's last segment. */
const EXECUTOR_PROTOCOL = ['api', 'v2', 'agent'];

/** Route parameters that carry capabilities, never kept (an upload link's signed token). */
const SECRET_PARAMS = /token|secret|signature/i;

const VERBS: Record<string, string> = { POST: 'create', PUT: 'update', PATCH: 'update', DELETE: 'destroy' };

/**
 * Describes a write from its route template (`/api/v2/workspaces/:id/actions/lock`), the values of
 * its parameters and the resource it answered with, if any:
 * - `…/:id/actions/<name>` is action `<name>` on the resource before it;
 * - `…/:id/relationships/<name>` adds, replaces or removes `<name>` of that resource;
 * - a route ending in a parameter acts on that resource (`PATCH /policies/:id`: update policies);
 * - a route ending in a name creates in that collection, and the answer names what was made;
 * - an executor's call (`/api/v2/agent/jobs/:id/finish`) is the action its last segment names on
 *   the resource before it (`finish` of that job; `register` of an agent).
 */
export function describeWrite(
  method: string,
  route: string,
  params: Record<string, string | undefined>,
  answered?: ResourceIdentifier,
): WriteDescription {
  const all = route.split('/').filter(Boolean);
  const last = all[all.length - 1] ?? '';
  if (
    all.length > EXECUTOR_PROTOCOL.length &&
    EXECUTOR_PROTOCOL.every((p, i) => all[i] === p) &&
    !last.startsWith(':')
  ) {
    const segments = all.slice(EXECUTOR_PROTOCOL.length, -1);
    const target = segments.length
      ? resourceAt(segments, params)
      : { resourceType: 'agents', resourceId: null };
    return { ...target, action: last };
  }
  const segments = withoutPrefix(all);
  const verb = VERBS[method] ?? method.toLowerCase();
  const marker = segments.findIndex((s) => s === 'actions' || s === 'relationships');
  if (marker > 0 && marker + 1 < segments.length) {
    const target = resourceAt(segments.slice(0, marker), params);
    const name = segments[marker + 1];
    if (segments[marker] === 'actions') return { ...target, action: name };
    const relation = { POST: 'add', DELETE: 'remove' }[method] ?? 'replace';
    return { ...target, action: `${relation}-${name}` };
  }
  const described = { ...resourceAt(segments, params), action: verb };
  if (answered && (described.resourceId === null || method === 'POST')) {
    return { resourceType: answered.type, resourceId: answered.id, action: verb };
  }
  return described;
}

function withoutPrefix(segments: string[]): string[] {
  for (const prefix of PREFIXES) {
    if (prefix.every((p, i) => segments[i] === p)) return segments.slice(prefix.length);
  }
  return segments;
}

/** The resource the last segments name: `<type>/:param` or a bare `<type>`. */
function resourceAt(
  segments: string[],
  params: Record<string, string | undefined>,
): Omit<WriteDescription, 'action'> {
  const last = segments[segments.length - 1] ?? '';
  if (!last.startsWith(':')) return { resourceType: last || 'root', resourceId: null };
  const name = last.slice(1);
  const type = [...segments].reverse().find((s) => !s.startsWith(':')) ?? 'root';
  const value = SECRET_PARAMS.test(name) ? undefined : params[name];
  return { resourceType: type, resourceId: value ? value.slice(0, 64) : null };
}
