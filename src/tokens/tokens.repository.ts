import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { Brackets, EntityManager, In, Repository } from 'typeorm';
import { IdSubquery } from '../common/sql/id-subquery';
import { paginate, Page } from '../common/sql/paginate';
import { PageParams } from '../common/jsonapi/pagination';
import { TokenEntity } from './entities/token.entity';

@Injectable()
export class TokensRepository {
  constructor(@InjectRepository(TokenEntity) private readonly repo: Repository<TokenEntity>) {}

  findById(id: string): Promise<TokenEntity | null> {
    return this.repo.findOne({ where: { id } });
  }

  /** The team's token from the one-token route (its others are listed with the organization's). */
  findTeamToken(teamId: string): Promise<TokenEntity | null> {
    return this.repo.findOne({ where: { teamId, kind: 'team', legacy: true } });
  }

  /** Team tokens of the teams `teamIds` names, both kinds of route. */
  listTeamTokens(teamIds: IdSubquery, page: PageParams): Promise<Page<TokenEntity>> {
    const qb = this.repo
      .createQueryBuilder('t')
      .where(`t.kind = 'team' AND t.team_id IN ${teamIds.sql}`, teamIds.parameters)
      .orderBy('t.created_at', 'ASC')
      .addOrderBy('t.id', 'ASC');
    return paginate(qb, page);
  }

  findOrganizationToken(organizationId: string): Promise<TokenEntity | null> {
    return this.repo.findOne({ where: { organizationId, kind: 'organization' } });
  }

  listUserTokens(userId: string, page: PageParams): Promise<Page<TokenEntity>> {
    const qb = this.repo
      .createQueryBuilder('t')
      .where("t.user_id = :userId AND t.kind = 'user'", { userId })
      .orderBy('t.created_at', 'ASC')
      .addOrderBy('t.id', 'ASC');
    return paginate(qb, page);
  }

  /** The organization's own token and its teams' tokens, optionally one kind only. */
  listOrganizationTokens(
    organizationId: string,
    teamIds: IdSubquery,
    kind: 'team' | 'organization' | undefined,
    page: PageParams,
  ): Promise<Page<TokenEntity>> {
    const qb = this.repo
      .createQueryBuilder('t')
      .where(
        new Brackets((w) =>
          w
            .where("t.kind = 'organization' AND t.organization_id = :organizationId", { organizationId })
            .orWhere(`t.kind = 'team' AND t.team_id IN ${teamIds.sql}`, teamIds.parameters),
        ),
      );
    if (kind) qb.andWhere('t.kind = :kind', { kind });
    return paginate(qb.orderBy('t.created_at', 'ASC').addOrderBy('t.id', 'ASC'), page);
  }

  /** Stamps `last_used_at`, skipping rows another process stamped after `notAfter`; chunked for long lists. */
  async markUsed(manager: EntityManager, ids: string[], at: Date, notAfter: Date): Promise<void> {
    for (let i = 0; i < ids.length; i += 500) {
      await manager
        .getRepository(TokenEntity)
        .createQueryBuilder()
        .update(TokenEntity)
        .set({ lastUsedAt: at })
        .where({ id: In(ids.slice(i, i + 500)) })
        .andWhere('(last_used_at IS NULL OR last_used_at <= :notAfter)', { notAfter })
        .execute();
    }
  }

  /**
   * Team and organization tokens keep working when the user who issued them goes; only the
   * `created-by` reference is cleared (the user column doubles as it for those kinds).
   */
  async forgetCreator(manager: EntityManager, userId: string): Promise<void> {
    await manager
      .getRepository(TokenEntity)
      .createQueryBuilder()
      .update()
      .set({ userId: null })
      .where("user_id = :userId AND kind <> 'user'", { userId })
      .execute();
  }

  insert(manager: EntityManager, token: TokenEntity): Promise<TokenEntity> {
    return manager.getRepository(TokenEntity).save(token);
  }

  async deleteById(manager: EntityManager, id: string): Promise<void> {
    await manager.getRepository(TokenEntity).delete({ id });
  }

  /** Removes the team's one-token-route token (it has at most one); returns how many went. */
  async deleteTeamToken(manager: EntityManager, teamId: string): Promise<number> {
    return (
      (await manager.getRepository(TokenEntity).delete({ teamId, kind: 'team', legacy: true })).affected ?? 0
    );
  }

  async deleteOrganizationToken(manager: EntityManager, organizationId: string): Promise<number> {
    return (
      (await manager.getRepository(TokenEntity).delete({ organizationId, kind: 'organization' })).affected ??
      0
    );
  }
}
