import type { Test } from 'supertest';
import { Actor } from '../helpers/fixtures';

/** The create body a strict client sends; `type: null` leaves `data.type` out like the documented sample. */
export function triggerBody(sourceableId: string, type: string | null = 'run-triggers') {
  return {
    data: {
      ...(type === null ? {} : { type }),
      relationships: { sourceable: { data: { id: sourceableId, type: 'workspaces' } } },
    },
  };
}

export function postTrigger(actor: Actor, workspaceId: string, sourceableId: string): Test {
  return actor.api.post(`/api/v2/workspaces/${workspaceId}/run-triggers`, triggerBody(sourceableId));
}

/** Creates `sourceable → workspace` and returns the run trigger's id. */
export async function createTrigger(
  actor: Actor,
  workspaceId: string,
  sourceableId: string,
): Promise<string> {
  const res = await postTrigger(actor, workspaceId, sourceableId);
  expect(res.status).toBe(201);
  return res.body.data.id;
}

export function listTriggers(
  actor: Actor,
  workspaceId: string,
  direction: 'inbound' | 'outbound',
  extra = '',
) {
  return actor.api.get(
    `/api/v2/workspaces/${workspaceId}/run-triggers?filter%5Brun-trigger%5D%5Btype%5D=${direction}${extra}`,
  );
}

/** A 422 document with one error about the sourceable relationship (coded when the rule has a code). */
export function sourceableError(detail: string, code?: string) {
  return {
    errors: [
      {
        status: '422',
        title: 'invalid attribute',
        ...(code ? { code } : {}),
        detail,
        source: { pointer: '/data/relationships/sourceable' },
      },
    ],
  };
}
