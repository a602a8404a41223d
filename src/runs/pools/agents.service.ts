import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { PermissionService } from '../../common/auth/permission.service';
import { Principal } from '../../common/auth/principal';
import { Page } from '../../common/sql/paginate';
import { inOneStatement } from '../../common/sql/transaction';
import { isForeignKeyViolation } from '../../common/errors/db-errors';
import { DomainError, notFound } from '../../common/errors/domain-error';
import { PageParams } from '../../common/jsonapi/pagination';
import { newId } from '../../common/ids';
import { OrganizationsService } from '../../organizations/organizations.service';
import { AppConfig } from '../../config/app-config';
import {
  AgentTokenContext,
  HEARTBEAT_INTERVAL_SECONDS,
  POLL_INTERVAL_SECONDS,
} from '../protocol/agent-context';
import { AgentAuthService } from './agent-auth.service';
import { AgentPoolsService } from './agent-pools.service';
import { Registration } from '../protocol/agent-protocol.types';
import { agentStatus, isRemovable } from './agent-status';
import { AgentActivityRepository } from './agent-activity.repository';
import { AgentsRepository } from './agents.repository';
import { AgentEntity } from './entities/agent.entity';
import { AgentView } from './agents.serializer';
import { AgentWorkRegistry } from './agent-work.registry';

@Injectable()
export class AgentsService {
  constructor(
    private readonly repo: AgentsRepository,
    private readonly activity: AgentActivityRepository,
    private readonly pools: AgentPoolsService,
    private readonly organizations: OrganizationsService,
    private readonly auth: AgentAuthService,
    private readonly work: AgentWorkRegistry,
    private readonly permissions: PermissionService,
    private readonly config: AppConfig,
    @InjectDataSource() private readonly ds: DataSource,
  ) {}

  /** A new executor process of the token's pool; it starts idle. */
  async register(
    token: AgentTokenContext,
    name: string,
    ipAddress: string | undefined,
  ): Promise<Registration> {
    const now = new Date();
    const agent = Object.assign(new AgentEntity(), {
      id: newId('agent'),
      poolId: token.poolId,
      tokenId: token.tokenId,
      name,
      status: 'idle',
      ipAddress: ipAddress ?? null,
      lastPingAt: now,
      createdAt: now,
    });
    try {
      await inOneStatement(this.ds, (m) => this.repo.insert(m, agent));
    } catch (err) {
      // The token or its pool was deleted a moment ago.
      if (isForeignKeyViolation(err))
        throw new DomainError('unauthorized', [{ detail: 'invalid agent token' }]);
      throw err;
    }
    this.auth.noteWritten(agent.id, now.getTime());
    const organization = await this.organizations.requireById(token.organizationId);
    return {
      'agent-id': agent.id,
      'pool-id': token.poolId,
      organization: organization.name,
      'poll-interval-seconds': POLL_INTERVAL_SECONDS,
      'heartbeat-interval-seconds': HEARTBEAT_INTERVAL_SECONDS,
      'claim-wait-max-seconds': this.config.claimWaitMaxSeconds,
    };
  }

  /** `last-ping-since` keeps agents seen at or after that time. */
  async list(
    p: Principal,
    poolId: string,
    seenSince: Date | undefined,
    page: PageParams,
  ): Promise<Page<AgentView>> {
    const pool = await this.pools.requireReadable(p, poolId);
    const agents = await this.repo.listForPool(pool.id, seenSince, page);
    const working = await this.work.working(agents.items.map((a) => a.id));
    return { ...agents, items: agents.items.map((agent) => ({ agent, working: working.has(agent.id) })) };
  }

  async show(p: Principal, id: string): Promise<AgentView> {
    const agent = await this.repo.findById(id);
    if (!agent) throw notFound();
    await this.pools.requireReadable(p, agent.poolId);
    return { agent, working: (await this.work.working([agent.id])).has(agent.id) };
  }

  /** Only an agent that is gone, or may be, leaves the list (412 otherwise, as the real service). */
  async delete(p: Principal, id: string): Promise<void> {
    const agent = await this.repo.findById(id);
    if (!agent) throw notFound();
    await this.pools.requireManageable(p, agent.poolId);
    const working = (await this.work.working([agent.id])).has(agent.id);
    const status = agentStatus(agent.status, agent.lastPingAt, Date.now(), working);
    if (!isRemovable(status)) {
      throw new DomainError('precondition-failed', [
        { detail: `Agent is ${status}; only unknown, errored or exited agents can be deleted` },
      ]);
    }
    await inOneStatement(this.ds, (m) => this.repo.delete(m, agent.id));
  }
}
