import { createHash, randomUUID } from 'node:crypto';
import { Api, putBytes } from './http';

export interface SeededState {
  /** A workspace whose current state version holds a state of about 1 MB. */
  stateWorkspaceId: string;
  stateVersionId: string;
}

/** A format-4 state of `instances` null_resource instances, about 250 bytes each. */
function stateOf(instances: number): Buffer {
  const state = {
    version: 4,
    terraform_version: '1.9.5',
    serial: 1,
    lineage: randomUUID(),
    outputs: {
      endpoint: { value: 'https://example.test', type: 'string' },
      password: { value: 'bench-secret', type: 'string', sensitive: true },
    },
    resources: [
      {
        mode: 'managed',
        type: 'null_resource',
        name: 'fleet',
        provider: 'provider["registry.terraform.io/hashicorp/null"]',
        instances: Array.from({ length: instances }, (_, i) => ({
          index_key: i,
          schema_version: 0,
          attributes: {
            id: String(7_000_000_000 + i),
            triggers: { owner: `team-${i % 40}`, note: 'x'.repeat(120) },
          },
          sensitive_attributes: [],
        })),
      },
    ],
    check_results: null,
  };
  return Buffer.from(JSON.stringify(state, null, 2));
}

/**
 * A workspace with a 1 MB state, written as the CLI writes it: lock, a pending version, the state
 * PUT to its upload link, unlock.
 */
export async function seedState(api: Api, workspaceId: string): Promise<SeededState> {
  const state = stateOf(3_800);
  await api.post(`/api/v2/workspaces/${workspaceId}/actions/lock`, { reason: 'bench' });
  const created = await api.post<{ data: { id: string; attributes: Record<string, string> } }>(
    `/api/v2/workspaces/${workspaceId}/state-versions`,
    {
      data: {
        type: 'state-versions',
        attributes: {
          serial: 1,
          md5: createHash('md5').update(state).digest('hex'),
          lineage: JSON.parse(state.toString()).lineage,
        },
      },
    },
  );
  await putBytes(created.data.attributes['hosted-state-upload-url'], state);
  await api.post(`/api/v2/workspaces/${workspaceId}/actions/unlock`);
  return { stateWorkspaceId: workspaceId, stateVersionId: created.data.id };
}
