import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { EntityManager, Repository } from 'typeorm';
import { paginate, Page } from '../common/sql/paginate';
import { PageParams } from '../common/jsonapi/pagination';
import { TokenEntity } from './entities/token.entity';

@Injectable()
export class TokensRepository {
  constructor(@InjectRepository(TokenEntity) private readonly repo: Repository<TokenEntity>) {}

  findById(id: string): Promise<TokenEntity | null> {
    return this.repo.findOne({ where: { id } });
  }

  listUserTokens(userId: string, page: PageParams): Promise<Page<TokenEntity>> {
    const qb = this.repo
      .createQueryBuilder('t')
      .where("t.user_id = :userId AND t.kind = 'user'", { userId })
      .orderBy('t.created_at', 'ASC')
      .addOrderBy('t.id', 'ASC');
    return paginate(qb, page);
  }

  insert(manager: EntityManager, token: TokenEntity): Promise<TokenEntity> {
    return manager.getRepository(TokenEntity).save(token);
  }

  async deleteById(manager: EntityManager, id: string): Promise<void> {
    await manager.getRepository(TokenEntity).delete({ id });
  }

  /** Removes the team's token (a team has at most one); returns how many went. */
  async deleteTeamToken(manager: EntityManager, teamId: string): Promise<number> {
    return (await manager.getRepository(TokenEntity).delete({ teamId, kind: 'team' })).affected ?? 0;
  }

  async deleteOrganizationToken(manager: EntityManager, organizationId: string): Promise<number> {
    return (
      (await manager.getRepository(TokenEntity).delete({ organizationId, kind: 'organization' })).affected ??
      0
    );
  }
}
