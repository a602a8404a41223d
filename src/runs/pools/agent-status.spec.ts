import { agentStatus, isRemovable } from './agent-status';
import { UNKNOWN_AFTER_MS } from '../protocol/agent-context';

describe('agentStatus', () => {
  const now = Date.parse('2026-01-01T12:00:00Z');
  const ago = (ms: number) => new Date(now - ms);

  it('keeps the stored status of an agent seen recently', () => {
    expect(agentStatus('idle', ago(1000), now)).toBe('idle');
    expect(agentStatus('busy', ago(UNKNOWN_AFTER_MS), now)).toBe('busy');
  });

  it('reads an idle or busy agent not seen for longer than the limit as unknown', () => {
    expect(agentStatus('idle', ago(UNKNOWN_AFTER_MS + 1), now)).toBe('unknown');
    expect(agentStatus('busy', ago(UNKNOWN_AFTER_MS + 1), now)).toBe('unknown');
  });

  it('keeps errored and exited agents as they are however old their last ping', () => {
    expect(agentStatus('errored', ago(10 * UNKNOWN_AFTER_MS), now)).toBe('errored');
    expect(agentStatus('exited', ago(10 * UNKNOWN_AFTER_MS), now)).toBe('exited');
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
