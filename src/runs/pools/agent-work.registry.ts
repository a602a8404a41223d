import { Injectable } from '@nestjs/common';

/** Which of these agents hold a claimed job right now. */
export type WorkingAgents = (agentIds: readonly string[]) => Promise<Set<string>>;

/**
 * An agent is `busy` while it holds a job, which the runs module keeps: it registers at start-up
 * how to ask, instead of the agent pools importing it (it imports them). The agent's row is not
 * written when it takes or finishes a job, so a claim or a report costs no agent write and ends no
 * remembered agent.
 */
@Injectable()
export class AgentWorkRegistry {
  private source?: WorkingAgents;

  register(source: WorkingAgents): void {
    this.source = source;
  }

  working(agentIds: readonly string[]): Promise<Set<string>> {
    if (!agentIds.length) return Promise.resolve(new Set());
    if (!this.source) throw new Error('AgentWorkRegistry: the runs module has not registered its jobs');
    return this.source(agentIds);
  }
}
