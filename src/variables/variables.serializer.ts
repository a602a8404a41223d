import { RelationshipObject, ResourceObject } from '../common/jsonapi/document';
import { bool, enumOf, nullableStr, ResourceDoc, str } from '../common/jsonapi/openapi';
import { shownValue } from '../secrets/sealed-values';
import { VariableEntity } from './entities/variable.entity';
import { VARIABLE_CATEGORIES } from './variable-rules';

/** Where a variable lives, as its wire shape names it. */
export type VariableOwnerRef =
  | { kind: 'workspace'; workspaceId: string; workspaceName: string; organizationName: string }
  | { kind: 'varset'; varsetId: string };

export interface VariableView {
  variable: VariableEntity;
  owner: VariableOwnerRef;
}

export const VARIABLE_DOC: ResourceDoc = {
  type: 'vars',
  attributes: {
    key: str('1–128 characters; an env variable’s key is a shell name'),
    value: nullableStr('At most 256 KB. Always null for a sensitive variable: its value is never shown'),
    description: str('At most 512 characters'),
    category: enumOf(VARIABLE_CATEGORIES),
    hcl: bool('The value is an HCL expression (terraform variables)'),
    sensitive: bool('Write-only value; cannot be turned off again'),
    'version-id': str('Opaque; new on every update'),
  },
  relationships: {
    configurable: { type: 'workspaces' },
    varset: { type: 'varsets' },
  },
  links: ['self'],
};

export function variablePath(owner: VariableOwnerRef, id: string): string {
  return owner.kind === 'workspace'
    ? `/api/v2/workspaces/${owner.workspaceId}/vars/${id}`
    : `/api/v2/varsets/${owner.varsetId}/relationships/vars/${id}`;
}

/** A variable on the wire; a sensitive one's value is null, whoever asks. */
export function serializeVariable({ variable: v, owner }: VariableView): ResourceObject {
  const relationships: Record<string, RelationshipObject> =
    owner.kind === 'workspace'
      ? {
          configurable: {
            data: { id: owner.workspaceId, type: 'workspaces' },
            links: {
              related: `/api/v2/organizations/${encodeURIComponent(owner.organizationName)}/workspaces/${encodeURIComponent(owner.workspaceName)}`,
            },
          },
        }
      : { varset: { data: { id: owner.varsetId, type: 'varsets' } } };
  return {
    id: v.id,
    type: 'vars',
    attributes: {
      key: v.key,
      value: shownValue(v),
      description: v.description,
      category: v.category,
      hcl: v.hcl,
      sensitive: v.sensitive,
      'version-id': v.versionId,
    },
    relationships,
    links: { self: variablePath(owner, v.id) },
  };
}
