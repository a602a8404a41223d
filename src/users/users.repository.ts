import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { EntityManager, In, Repository } from 'typeorm';
import { UserEntity } from './entities/user.entity';

@Injectable()
export class UsersRepository {
  constructor(@InjectRepository(UserEntity) private readonly repo: Repository<UserEntity>) {}

  findById(id: string): Promise<UserEntity | null> {
    return this.repo.findOne({ where: { id } });
  }

  /** Users whose id or username is among `refs`, one query. */
  findByIdsOrUsernames(refs: string[]): Promise<UserEntity[]> {
    if (!refs.length) return Promise.resolve([]);
    return this.repo.find({ where: [{ id: In(refs) }, { username: In(refs) }] });
  }

  findByIds(ids: string[]): Promise<UserEntity[]> {
    return ids.length ? this.repo.find({ where: { id: In(ids) } }) : Promise.resolve([]);
  }

  async anySiteAdmin(manager?: EntityManager): Promise<boolean> {
    const repo = manager ? manager.getRepository(UserEntity) : this.repo;
    return (await repo.count({ where: { isSiteAdmin: true } })) > 0;
  }

  insert(manager: EntityManager, user: UserEntity): Promise<UserEntity> {
    return manager.getRepository(UserEntity).save(user);
  }
}
