import { Transform } from 'class-transformer';
import { badRequest } from '../common/errors/domain-error';

/** The two policy-as-code frameworks; a policy set and its policies share one kind. */
export const POLICY_KINDS = ['framework_a', 'framework_b'] as const;
export type PolicyKind = (typeof POLICY_KINDS)[number];

/**
 * The real service's names of the two kinds, accepted wherever a kind is given (create bodies,
 * `filter[kind]`) so its official clients work unchanged; answers keep the contract's names.
 */
export const KIND_ALIASES: Readonly<Record<string, PolicyKind>> = {
  sentinel: 'framework_a',
  opa: 'framework_b',
};

export const ENFORCEMENT_LEVELS = {
  framework_a: ['advisory', 'soft-mandatory', 'hard-mandatory'],
  framework_b: ['advisory', 'mandatory'],
} as const satisfies Record<PolicyKind, readonly string[]>;

export type EnforcementLevel = (typeof ENFORCEMENT_LEVELS)[PolicyKind][number];

export function isPolicyKind(value: string): value is PolicyKind {
  return (POLICY_KINDS as readonly string[]).includes(value);
}

/** The contract's name for a kind given under the real service's name; anything else unchanged. */
export function canonicalKind<T>(value: T): T | PolicyKind {
  return typeof value === 'string' && Object.hasOwn(KIND_ALIASES, value) ? KIND_ALIASES[value] : value;
}

/** On a DTO's `kind`: the real service's names become the contract's before validation. */
export const AcceptsKindAliases = (): PropertyDecorator =>
  Transform(({ value }: { value: unknown }) => canonicalKind(value));

/** `filter[kind]` of a list request; an unknown kind is a 400 naming the parameter. */
export function parseKindFilter(raw: string | undefined): PolicyKind | undefined {
  if (raw === undefined || raw === '') return undefined;
  const kind = canonicalKind(raw);
  if (!isPolicyKind(kind)) {
    throw badRequest(`filter[kind] must be one of ${POLICY_KINDS.join(', ')}`, 'filter[kind]');
  }
  return kind;
}
