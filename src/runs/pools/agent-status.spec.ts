import { agentStatus, isRemovable } from './agent-status';
import { UNKNOWN_AFTER_MS } from '../protocol/agent-context';

describe('agentStatus', () => {
  const now = Date.parse('2026-01-01T12:00:00Z');
  const ago = (ms: number) => new Date(now - ms);

  it('reads an agent seen recently as busy while it holds a job and idle otherwise', () => {
    expect(agentStatus('idle', ago(1000), now, false)).toBe('idle');
    expect(agentStatus('idle', ago(UNKNOWN_AFTER_MS), now, true)).toBe('busy');
  });

  it('derives busy and idle from the jobs even for rows that stored busy', () => {
    expect(agentStatus('busy', ago(1000), now, false)).toBe('idle');
    expect(agentStatus('busy', ago(1000), now, true)).toBe('busy');
  });

  it('reads an agent not seen for longer than the limit as unknown, working or not', () => {
    expect(agentStatus('idle', ago(UNKNOWN_AFTER_MS + 1), now, false)).toBe('unknown');
    expect(agentStatus('idle', ago(UNKNOWN_AFTER_MS + 1), now, true)).toBe('unknown');
    expect(agentStatus('busy', ago(UNKNOWN_AFTER_MS + 1), now, true)).toBe('unknown');
  });

  it('keeps errored and exited agents as they are however old their last ping', () => {
    expect(agentStatus('errored', ago(10 * UNKNOWN_AFTER_MS), now, true)).toBe('errored');
    expect(agentStatus('exited', ago(10 * UNKNOWN_AFTER_MS), now, false)).toBe('exited');
  });
});

describe('isRemovable', () => {
  it('lets only unknown, errored and exited agents go', () => {
    expect(['idle', 'busy', 'unknown', 'errored', 'exited'].filter((s) => isRemovable(s as never))).toEqual([
      'unknown',
      'errored',
      'exited',
    ]);
  });
});
