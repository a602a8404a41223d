import { DomainError } from '../common/errors/domain-error';
import { policyViolations } from './policies.service';

const details = (kind: 'framework_a' | 'framework_b', level: string, query: string | null) => {
  try {
    policyViolations(kind, level, query).throwIfAny();
    return [];
  } catch (err) {
    return (err as DomainError).items.map((i) => [i.detail, i.pointer]);
  }
};

describe('policy rules', () => {
  it.each(['advisory', 'soft-mandatory', 'hard-mandatory'])(
    'accept framework_a at %s without a query',
    (level) => {
      expect(details('framework_a', level, null)).toEqual([]);
    },
  );

  it.each(['advisory', 'mandatory'])('accept framework_b at %s with a query', (level) => {
    expect(details('framework_b', level, 'data.terraform.deny')).toEqual([]);
  });

  it('refuse a level of the other framework, naming the allowed ones', () => {
    expect(details('framework_a', 'mandatory', null)).toEqual([
      [
        'Enforcement level is not included in the list for framework_a: advisory, soft-mandatory, hard-mandatory',
        '/data/attributes/enforcement-level',
      ],
    ]);
    expect(details('framework_b', 'soft-mandatory', 'q')).toEqual([
      [
        'Enforcement level is not included in the list for framework_b: advisory, mandatory',
        '/data/attributes/enforcement-level',
      ],
    ]);
  });

  it('require a query for framework_b and refuse one for framework_a, with the level error too', () => {
    expect(details('framework_b', 'hard-mandatory', null)).toEqual([
      [
        'Enforcement level is not included in the list for framework_b: advisory, mandatory',
        '/data/attributes/enforcement-level',
      ],
      ["Query can't be blank for framework_b policies", '/data/attributes/query'],
    ]);
    expect(details('framework_a', 'advisory', 'data.x')).toEqual([
      ['Query is only valid for framework_b policies', '/data/attributes/query'],
    ]);
  });
});
