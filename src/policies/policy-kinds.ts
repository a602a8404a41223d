import { badRequest } from '../common/errors/domain-error';

/** The two policy-as-code frameworks; a policy set and its policies share one kind. */
export const POLICY_KINDS = ['framework_a', 'framework_b'] as const;
export type PolicyKind = (typeof POLICY_KINDS)[number];

export const ENFORCEMENT_LEVELS = {
  framework_a: ['advisory', 'soft-mandatory', 'hard-mandatory'],
  framework_b: ['advisory', 'mandatory'],
} as const satisfies Record<PolicyKind, readonly string[]>;

export type EnforcementLevel = (typeof ENFORCEMENT_LEVELS)[PolicyKind][number];

export function isPolicyKind(value: string): value is PolicyKind {
  return (POLICY_KINDS as readonly string[]).includes(value);
}

/** `filter[kind]` of a list request; an unknown kind is a 400 naming the parameter. */
export function parseKindFilter(raw: string | undefined): PolicyKind | undefined {
  if (raw === undefined || raw === '') return undefined;
  if (!isPolicyKind(raw)) {
    throw badRequest(`filter[kind] must be one of ${POLICY_KINDS.join(', ')}`, 'filter[kind]');
  }
  return raw;
}
