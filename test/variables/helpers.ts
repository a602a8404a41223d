import { Actor } from '../helpers/fixtures';
import { Client } from '../helpers/test-app';

/** Every response body a wrapped client received, to search for values that must never show. */
export class SeenBodies {
  readonly bodies: string[] = [];

  /** The same client, recording each response's body here. */
  watch(actor: Actor): Actor {
    const wrap =
      <A extends unknown[]>(send: (...args: A) => ReturnType<Client['get']>) =>
      (...args: A) =>
        send(...args).on('response', (res: { text?: string }) => {
          this.bodies.push(res.text ?? '');
        });
    const api = actor.api;
    return {
      ...actor,
      api: {
        get: wrap(api.get),
        head: wrap(api.head),
        delete: wrap(api.delete),
        post: wrap(api.post),
        patch: wrap(api.patch),
        put: wrap(api.put),
      },
    };
  }

  containing(secret: string): string[] {
    return this.bodies.filter((b) => b.includes(secret));
  }
}

export function varBody(attributes: Record<string, unknown>, id?: string): unknown {
  return { data: { type: 'vars', ...(id ? { id } : {}), attributes } };
}

export async function createVar(
  actor: Actor,
  workspaceId: string,
  attributes: Record<string, unknown>,
): Promise<{ id: string; body: Record<string, unknown> }> {
  const res = await actor.api.post(`/api/v2/workspaces/${workspaceId}/vars`, varBody(attributes)).expect(201);
  return { id: res.body.data.id as string, body: res.body.data };
}

export function varsetBody(
  attributes: Record<string, unknown>,
  relationships?: Record<string, unknown>,
): unknown {
  return { data: { type: 'varsets', attributes, ...(relationships ? { relationships } : {}) } };
}

export const ids = (type: string, list: string[]) => ({ data: list.map((id) => ({ type, id })) });

export async function createVarset(
  actor: Actor,
  org: string,
  attributes: Record<string, unknown>,
  relationships?: Record<string, unknown>,
): Promise<string> {
  const res = await actor.api
    .post(`/api/v2/organizations/${org}/varsets`, varsetBody(attributes, relationships))
    .expect(201);
  return res.body.data.id as string;
}

export async function addSetVar(
  actor: Actor,
  varsetId: string,
  attributes: Record<string, unknown>,
): Promise<string> {
  const res = await actor.api
    .post(`/api/v2/varsets/${varsetId}/relationships/vars`, varBody(attributes))
    .expect(201);
  return res.body.data.id as string;
}
