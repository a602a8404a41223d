import { nextExecution } from './execution-settings.rules';

describe('nextExecution', () => {
  const remote = { mode: 'remote' as const, poolId: null };
  const onPool = { mode: 'agent' as const, poolId: 'apool-1' };

  it('switches to agent with the pool given', () => {
    expect(nextExecution(remote, { mode: 'agent', poolId: 'apool-2' })).toEqual({
      mode: 'agent',
      poolId: 'apool-2',
    });
  });

  it('needs a pool to switch to agent', () => {
    expect(nextExecution(remote, { mode: 'agent' })).toBe('pool-required');
    expect(nextExecution(onPool, { poolId: null })).toBe('pool-required');
  });

  it('keeps the pool when an agent workspace changes something else', () => {
    expect(nextExecution(onPool, {})).toEqual(onPool);
    expect(nextExecution(onPool, { mode: 'agent' })).toEqual(onPool);
  });

  it('moves an agent workspace to another pool without repeating the mode', () => {
    expect(nextExecution(onPool, { poolId: 'apool-2' })).toEqual({ mode: 'agent', poolId: 'apool-2' });
  });

  it('refuses a pool with another mode and drops the pool when leaving agent', () => {
    expect(nextExecution(remote, { poolId: 'apool-2' })).toBe('pool-forbidden');
    expect(nextExecution(onPool, { mode: 'local', poolId: 'apool-1' })).toBe('pool-forbidden');
    expect(nextExecution(onPool, { mode: 'local' })).toEqual({ mode: 'local', poolId: null });
    expect(nextExecution(onPool, { mode: 'remote', poolId: null })).toEqual({ mode: 'remote', poolId: null });
  });
});
