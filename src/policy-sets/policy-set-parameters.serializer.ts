import { ResourceObject } from '../common/jsonapi/document';
import { bool, enumOf, nullableStr, ResourceDoc, str } from '../common/jsonapi/openapi';
import { shownValue } from '../secrets/sealed-values';
import { PolicySetParameterEntity } from './entities/policy-set-parameter.entity';
import { PARAMETER_CATEGORY } from './policy-set-parameter-rules';

/**
 * The parameters' routes declare this shape themselves; the document's shared `vars` component (for
 * `included` arrays) stays the variables' one, which parameters never appear in.
 */
export const POLICY_SET_PARAMETER_DOC: ResourceDoc = {
  type: 'vars',
  attributes: {
    key: str('1–128 characters, unique in the set'),
    value: nullableStr('At most 256 KB. Always null for a sensitive parameter: its value is never shown'),
    category: enumOf([PARAMETER_CATEGORY]),
    sensitive: bool('Write-only value; cannot be turned off again'),
  },
  relationships: { configurable: { type: 'policy-sets' } },
  links: ['self'],
};

export const parameterPath = (policySetId: string, id: string) =>
  `/api/v2/policy-sets/${policySetId}/parameters/${id}`;

/** A parameter on the wire, as the real service's; a sensitive one's value is null, whoever asks. */
export function serializeParameter(p: PolicySetParameterEntity): ResourceObject {
  return {
    id: p.id,
    type: 'vars',
    attributes: {
      key: p.key,
      value: shownValue(p),
      category: PARAMETER_CATEGORY,
      sensitive: p.sensitive,
    },
    relationships: {
      configurable: {
        data: { id: p.policySetId, type: 'policy-sets' },
        links: { related: `/api/v2/policy-sets/${p.policySetId}` },
      },
    },
    links: { self: parameterPath(p.policySetId, p.id) },
  };
}
