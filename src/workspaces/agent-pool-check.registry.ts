import { Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';

export type AgentPoolUsability = 'usable' | 'missing' | 'not-allowed';

/** Whether a workspace may send its jobs to a pool, asked inside the workspace's save transaction. */
export type AgentPoolCheck = (
  manager: EntityManager,
  poolId: string,
  workspace: { id: string; organizationId: string },
) => Promise<AgentPoolUsability>;

/**
 * Agent pools depend on workspaces (allowed workspaces, pools in use), so workspaces cannot import
 * them back: the agent pools module registers its check here at start-up instead.
 */
@Injectable()
export class AgentPoolCheckRegistry {
  private check?: AgentPoolCheck;

  register(check: AgentPoolCheck): void {
    this.check = check;
  }

  usability(
    manager: EntityManager,
    poolId: string,
    workspace: { id: string; organizationId: string },
  ): Promise<AgentPoolUsability> {
    if (!this.check) throw new Error('no agent pool check registered (AgentPoolsModule not loaded)');
    return this.check(manager, poolId, workspace);
  }
}
