import { DomainError } from '../common/errors/domain-error';
import { validateAttributes } from '../common/jsonapi/body';
import { CreatePolicyAttributes, requestedLevel, UpdatePolicyAttributes } from './dto/policy-attributes.dto';
import { canonicalKind, parseKindFilter } from './policy-kinds';

const refusal = (work: () => unknown) => {
  try {
    work();
  } catch (err) {
    return (err as DomainError).items.map((i) => [i.detail, i.pointer ?? i.parameter]);
  }
  throw new Error('expected a refusal');
};

describe('policy kinds under the real service names', () => {
  it.each([
    ['sentinel', 'framework_a'],
    ['opa', 'framework_b'],
    ['framework_a', 'framework_a'],
    ['framework_b', 'framework_b'],
  ])('reads %s as %s in filter[kind]', (raw, kind) => {
    expect(parseKindFilter(raw)).toBe(kind);
  });

  it('refuses any other filter[kind] with a 400 naming the parameter', () => {
    expect(refusal(() => parseKindFilter('rego'))).toEqual([
      ['filter[kind] must be one of framework_a, framework_b', 'filter[kind]'],
    ]);
    expect(parseKindFilter(undefined)).toBeUndefined();
  });

  it('maps only the two names and leaves everything else for validation', () => {
    expect(canonicalKind('opa')).toBe('framework_b');
    expect(canonicalKind('toString')).toBe('toString');
    expect(canonicalKind(7)).toBe(7);
  });

  it('turns kind: sentinel in a create body into framework_a before validation', () => {
    const attrs = validateAttributes(CreatePolicyAttributes, {
      name: 'p',
      kind: 'sentinel',
      'enforcement-level': 'advisory',
    });
    expect(attrs.kind).toBe('framework_a');
  });
});

describe('the legacy enforce attribute', () => {
  it('gives the level when enforcement-level is absent', () => {
    const attrs = validateAttributes(CreatePolicyAttributes, {
      name: 'p',
      enforce: [{ path: 'p.sentinel', mode: 'hard-mandatory' }],
    });
    expect(requestedLevel(attrs)).toEqual({ level: 'hard-mandatory', attribute: 'enforce' });
  });

  it('yields to enforcement-level when both are sent', () => {
    const attrs = validateAttributes(UpdatePolicyAttributes, {
      'enforcement-level': 'advisory',
      enforce: [{ path: 'p.sentinel', mode: 'hard-mandatory' }],
    });
    expect(requestedLevel(attrs)).toEqual({ level: 'advisory', attribute: 'enforcement-level' });
    expect(requestedLevel(validateAttributes(UpdatePolicyAttributes, {}))).toBeUndefined();
  });

  it('still requires one of the two on create', () => {
    expect(refusal(() => validateAttributes(CreatePolicyAttributes, { name: 'p' }))).toEqual([
      ["Enforcement level can't be blank", '/data/attributes/enforcement-level'],
    ]);
  });

  it('refuses anything but exactly one entry with a mode', () => {
    const detailsOf = (enforce: unknown) =>
      refusal(() => validateAttributes(CreatePolicyAttributes, { name: 'p', enforce })).map(([d]) => d);
    expect(detailsOf([])).toEqual([
      'Enforce must have exactly one entry: a policy has one enforcement level',
    ]);
    expect(detailsOf([{ mode: 'advisory' }, { mode: 'advisory' }])).toEqual([
      'Enforce must have exactly one entry: a policy has one enforcement level',
    ]);
    expect(detailsOf([{ path: 'p.sentinel' }])).toEqual(["Enforce 0 mode can't be blank"]);
    expect(detailsOf('hard-mandatory')).toEqual(expect.arrayContaining(['Enforce must be an array']));
  });
});
