import fc from 'fast-check';
import {
  cyclePath,
  describeCycle,
  MAX_SOURCES_PER_WORKSPACE,
  ruleFailures,
  TriggerEdge,
  UNREADABLE_WORKSPACES,
} from './run-triggers.rules';

/** `a>b` reads "a run in a triggers b": sourceable a, destination b. */
const edge = (spec: string): TriggerEdge => {
  const [sourceableId, workspaceId] = spec.split('>');
  return { workspaceId, sourceableId };
};
const edges = (...specs: string[]) => specs.map(edge);

function isAcyclic(all: readonly TriggerEdge[]): boolean {
  const indegree = new Map<string, number>();
  for (const e of all) {
    indegree.set(e.sourceableId, indegree.get(e.sourceableId) ?? 0);
    indegree.set(e.workspaceId, (indegree.get(e.workspaceId) ?? 0) + 1);
  }
  const ready = [...indegree].filter(([, n]) => n === 0).map(([id]) => id);
  let seen = 0;
  while (ready.length) {
    const id = ready.pop()!;
    seen++;
    for (const e of all.filter((x) => x.sourceableId === id)) {
      const n = indegree.get(e.workspaceId)! - 1;
      indegree.set(e.workspaceId, n);
      if (n === 0) ready.push(e.workspaceId);
    }
  }
  return seen === indegree.size;
}

describe('cyclePath', () => {
  it('finds no cycle in an empty organization', () => {
    expect(cyclePath([], edge('a>b'))).toBeNull();
  });

  it('reports a workspace triggering itself as a cycle of one step', () => {
    expect(cyclePath([], edge('a>a'))).toEqual(['a', 'a']);
  });

  it('refuses the trigger that closes a loop of two', () => {
    expect(cyclePath(edges('a>b'), edge('b>a'))).toEqual(['b', 'a', 'b']);
  });

  it('names the workspaces of a three-workspace loop in firing order', () => {
    expect(cyclePath(edges('a>b', 'b>c'), edge('c>a'))).toEqual(['c', 'a', 'b', 'c']);
  });

  it('accepts a diamond, which has two paths but no loop', () => {
    expect(cyclePath(edges('a>b', 'a>c', 'b>d'), edge('c>d'))).toBeNull();
  });

  it('accepts a trigger in the direction the chain already runs', () => {
    expect(cyclePath(edges('a>b', 'b>c'), edge('a>c'))).toBeNull();
  });

  it('reports a shortest loop when there are several', () => {
    const existing = edges('a>b', 'b>c', 'c>d', 'a>d');
    expect(cyclePath(existing, edge('d>a'))).toEqual(['d', 'a', 'd']);
  });

  it('keeps every graph built from accepted triggers free of cycles', () => {
    const ids = ['a', 'b', 'c', 'd', 'e', 'f'];
    const candidate = fc
      .tuple(fc.constantFrom(...ids), fc.constantFrom(...ids))
      .map(([s, d]) => ({ sourceableId: s, workspaceId: d }));
    fc.assert(
      fc.property(fc.array(candidate, { maxLength: 40 }), (candidates) => {
        const accepted: TriggerEdge[] = [];
        for (const c of candidates) {
          const path = cyclePath(accepted, c);
          if (path) {
            expect(isAcyclic([...accepted, c])).toBe(false);
            const steps = path.slice(1).map((to, i) => ({ sourceableId: path[i], workspaceId: to }));
            expect(steps[0]).toEqual(c);
            for (const step of steps.slice(1)) expect(accepted).toContainEqual(step);
          } else {
            accepted.push(c);
          }
        }
        expect(isAcyclic(accepted)).toBe(true);
      }),
    );
  });
});

describe('ruleFailures', () => {
  const sources = (n: number, dest = 'dest') =>
    Array.from({ length: n }, (_, i) => ({ workspaceId: dest, sourceableId: `s${i}` }));

  it('passes a new pair under the limit with no loop', () => {
    expect(ruleFailures(sources(3), edge('x>dest'))).toEqual([]);
  });

  it('refuses the same pair a second time', () => {
    expect(ruleFailures(sources(3), edge('s1>dest'))).toEqual([{ rule: 'duplicate' }]);
  });

  it(`accepts the ${MAX_SOURCES_PER_WORKSPACE}th source and refuses the next`, () => {
    expect(ruleFailures(sources(MAX_SOURCES_PER_WORKSPACE - 1), edge('x>dest'))).toEqual([]);
    expect(ruleFailures(sources(MAX_SOURCES_PER_WORKSPACE), edge('x>dest'))).toEqual([{ rule: 'limit' }]);
  });

  it('counts only the sources of the same destination toward the limit', () => {
    const others = sources(MAX_SOURCES_PER_WORKSPACE, 'other');
    expect(ruleFailures([...others, ...sources(1)], edge('x>dest'))).toEqual([]);
  });

  it('reports a duplicate rather than the limit when the pair already exists at the limit', () => {
    expect(ruleFailures(sources(MAX_SOURCES_PER_WORKSPACE), edge('s0>dest'))).toEqual([
      { rule: 'duplicate' },
    ]);
  });

  it('reports both the limit and a cycle when the candidate breaks both', () => {
    const existing = [...sources(MAX_SOURCES_PER_WORKSPACE), edge('dest>x')];
    expect(ruleFailures(existing, edge('x>dest'))).toEqual([
      { rule: 'limit' },
      { rule: 'cycle', path: ['x', 'dest', 'x'] },
    ]);
  });
});

describe('describeCycle', () => {
  const names = new Map([
    ['a', 'alpha'],
    ['d', 'delta'],
  ]);

  it('names every workspace the caller may read', () => {
    expect(describeCycle(['a', 'd', 'a'], names)).toBe('alpha → delta → alpha');
  });

  it('folds each stretch of unreadable workspaces into one placeholder', () => {
    expect(describeCycle(['d', 'a', 'b', 'c', 'd'], names)).toBe(
      `delta → alpha → ${UNREADABLE_WORKSPACES} → delta`,
    );
    expect(describeCycle(['b', 'a', 'c', 'b'], names)).toBe(
      `${UNREADABLE_WORKSPACES} → alpha → ${UNREADABLE_WORKSPACES}`,
    );
  });
});
