import { Injectable } from '@nestjs/common';
import { PermissionService } from '../../common/auth/permission.service';
import { Principal } from '../../common/auth/principal';
import { newTokenSecret, tokenDigest } from '../../common/auth/token-secret';
import { Page } from '../../common/sql/paginate';
import { isForeignKeyViolation } from '../../common/errors/db-errors';
import { notFound } from '../../common/errors/domain-error';
import { ResourceObject } from '../../common/jsonapi/document';
import { PageParams } from '../../common/jsonapi/pagination';
import { newId } from '../../common/ids';
import { AgentPoolsService } from './agent-pools.service';
import { AgentTokensRepository } from './agent-tokens.repository';
import { serializeAgentToken } from './agent-tokens.serializer';
import { CreateAgentTokenAttributes } from './dto/agent-token-attributes.dto';
import { AgentTokenEntity } from './entities/agent-token.entity';

export interface IssuedAgentToken {
  token: AgentTokenEntity;
  secret: string;
}

/** Agent tokens: organization owners only, whether to list, issue, show or revoke. */
@Injectable()
export class AgentTokensService {
  constructor(
    private readonly repo: AgentTokensRepository,
    private readonly pools: AgentPoolsService,
    private readonly permissions: PermissionService,
  ) {}

  async list(p: Principal, poolId: string, page: PageParams): Promise<Page<AgentTokenEntity>> {
    const pool = await this.pools.requireManageable(p, poolId);
    return this.repo.listForPool(pool.id, page);
  }

  /** The secret is returned once; only its SHA-256 digest is kept. */
  async create(p: Principal, poolId: string, attrs: CreateAgentTokenAttributes): Promise<IssuedAgentToken> {
    const pool = await this.pools.requireManageable(p, poolId);
    const secret = newTokenSecret();
    const token = Object.assign(new AgentTokenEntity(), {
      id: newId('at'),
      poolId: pool.id,
      digest: tokenDigest(secret),
      description: attrs.description,
      createdById: p.kind === 'user' ? p.userId : null,
      lastUsedAt: null,
      createdAt: new Date(),
    });
    try {
      await this.repo.insert(token);
    } catch (err) {
      // The pool was deleted since it was read.
      if (isForeignKeyViolation(err)) throw notFound();
      throw err;
    }
    return { token, secret };
  }

  /**
   * The agent token with this id as a resource, or null when there is none (the id may be a user,
   * team or organization token's: `/authentication-tokens/:id` serves them all).
   */
  async findResource(p: Principal, id: string): Promise<ResourceObject | null> {
    const token = await this.repo.findById(id);
    if (!token) return null;
    await this.pools.requireManageable(p, token.poolId);
    return serializeAgentToken(token);
  }

  /** Revokes the token: executors using it are refused from their next request on, on every node. */
  async delete(p: Principal, id: string): Promise<boolean> {
    const token = await this.repo.findById(id);
    if (!token) return false;
    await this.pools.requireManageable(p, token.poolId);
    await this.repo.delete(token.id);
    return true;
  }
}
