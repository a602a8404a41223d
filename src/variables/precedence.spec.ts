import { Candidate, compareCodePoints, effectiveVariables, Origin, SetOrigin, tierOf } from './precedence';

const set = (name: string, over: Partial<SetOrigin> = {}): SetOrigin => ({
  kind: 'varset',
  id: `varset-${name}`,
  name,
  priority: false,
  projectOwned: false,
  scopes: ['workspace'],
  ...over,
});

/** One candidate per origin for the same key: the one that wins names itself. */
function winner(...origins: Origin[]): string {
  const candidates: Candidate<string>[] = origins.map((origin, i) => ({
    key: 'region',
    category: 'terraform',
    origin,
    variable: origin.kind === 'varset' ? origin.name : `${origin.kind}-${i}`,
  }));
  const won = effectiveVariables(candidates);
  expect(won).toHaveLength(1);
  return won[0].variable;
}

const WORKSPACE: Origin = { kind: 'workspace' };
const RUN: Origin = { kind: 'run' };

/** The documented order, strongest first, each as a set (or the workspace, or the run). */
const TIERS: [string, Origin][] = [
  ['1 priority global set', set('p-global', { priority: true, scopes: ['global'] })],
  [
    '2 priority project-scoped set owned by the organization',
    set('p-org-prj', { priority: true, scopes: ['project'] }),
  ],
  ['3 priority workspace-scoped set owned by the organization', set('p-org-ws', { priority: true })],
  [
    '4 priority project-scoped set owned by a project',
    set('p-prj-prj', { priority: true, projectOwned: true, scopes: ['project'] }),
  ],
  [
    '5 priority workspace-scoped set owned by a project',
    set('p-prj-ws', { priority: true, projectOwned: true }),
  ],
  ['6 run variables', RUN],
  ['8 workspace variables', WORKSPACE],
  ['9 workspace-scoped set owned by a project', set('prj-ws', { projectOwned: true })],
  ['10 project-scoped set owned by a project', set('prj-prj', { projectOwned: true, scopes: ['project'] })],
  ['11 workspace-scoped set owned by the organization', set('org-ws')],
  ['12 project-scoped set owned by the organization', set('org-prj', { scopes: ['project'] })],
  ['13 global set', set('global', { scopes: ['global'] })],
];

const label = (o: Origin, i: number) => (o.kind === 'varset' ? o.name : `${o.kind}-${i}`);

describe('precedence', () => {
  it('numbers the tiers as the reference does', () => {
    expect(TIERS.map(([, o]) => tierOf(o))).toEqual([1, 2, 3, 4, 5, 6, 8, 9, 10, 11, 12, 13]);
  });

  // One test per tier against its neighbours, both orders of arrival.
  it.each(TIERS.slice(0, -1).map((tier, i) => [tier[0], TIERS[i + 1][0], i] as const))(
    '%s beats %s',
    (_strong, _weak, i) => {
      const strong = TIERS[i][1];
      const weak = TIERS[i + 1][1];
      expect(winner(strong, weak)).toBe(label(strong, 0));
      expect(winner(weak, strong)).toBe(label(strong, 1));
    },
  );

  it('priority sets beat run variables; run variables beat workspace variables', () => {
    expect(winner(RUN, set('p', { priority: true, projectOwned: true }))).toBe('p');
    expect(winner(WORKSPACE, RUN)).toBe('run-1');
  });

  it('between sets of one tier, the name first in code-point order wins', () => {
    expect(winner(set('B_set'), set('A_set'))).toBe('A_set');
    // Upper case sorts before lower case by code point.
    expect(winner(set('a'), set('Z'))).toBe('Z');
    // An astral character sorts after U+FFFD by code point (UTF-16 units would say before).
    expect(winner(set('\u{1F600}'), set('\uFFFD'))).toBe('\uFFFD');
    expect(compareCodePoints('\u{1F600}', '\uFFFD')).toBeGreaterThan(0);
    expect(
      winner(
        set('ab', { priority: true, scopes: ['global'] }),
        set('aa', { priority: true, scopes: ['global'] }),
      ),
    ).toBe('aa');
  });

  it('a set reaching the workspace twice counts at its strongest tier', () => {
    const both = set('zz-both', { scopes: ['project', 'workspace'] });
    expect(tierOf(both)).toBe(11);
    expect(winner(set('aa-prj', { scopes: ['project'] }), both)).toBe('zz-both');
    expect(tierOf(set('p', { priority: true, scopes: ['workspace', 'project'] }))).toBe(2);
  });

  it('only the same category and key conflict', () => {
    const won = effectiveVariables([
      { key: 'region', category: 'terraform', origin: WORKSPACE, variable: 'tf' },
      { key: 'region', category: 'env', origin: set('s'), variable: 'env' },
      { key: 'Region', category: 'terraform', origin: set('s'), variable: 'upper' },
    ]);
    expect(won.map((w) => [w.category, w.key, w.variable])).toEqual([
      ['env', 'region', 'env'],
      ['terraform', 'Region', 'upper'],
      ['terraform', 'region', 'tf'],
    ]);
  });
});
