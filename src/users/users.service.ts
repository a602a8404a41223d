import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { PermissionService } from '../common/auth/permission.service';
import { Principal } from '../common/auth/principal';
import { inTransaction } from '../common/sql/transaction';
import { isUniqueViolation } from '../common/errors/db-errors';
import { invalid, notFound } from '../common/errors/domain-error';
import { newId } from '../common/ids';
import { CreateUserAttributes } from './dto/user-attributes.dto';
import { UserEntity } from './entities/user.entity';
import { hashPassword } from './password';
import { UsersRepository } from './users.repository';

@Injectable()
export class UsersService {
  constructor(
    private readonly repo: UsersRepository,
    private readonly permissions: PermissionService,
    @InjectDataSource() private readonly ds: DataSource,
  ) {}

  async requireById(id: string): Promise<UserEntity> {
    const user = await this.repo.findById(id);
    if (!user) throw notFound();
    return user;
  }

  /** Users by id or username (team membership bodies carry either), one query. */
  findByRefs(refs: string[]): Promise<UserEntity[]> {
    return this.repo.findByIdsOrUsernames([...new Set(refs)]);
  }

  findByIds(ids: string[]): Promise<UserEntity[]> {
    return this.repo.findByIds([...new Set(ids)]);
  }

  anySiteAdmin(manager?: EntityManager): Promise<boolean> {
    return this.repo.anySiteAdmin(manager);
  }

  /** The calling user; 404 for team and organization tokens, which have no user. */
  async current(p: Principal): Promise<UserEntity> {
    if (p.kind !== 'user') throw notFound();
    return this.requireById(p.userId);
  }

  /** Users see themselves; site administrators see everyone. */
  async requireVisible(p: Principal, id: string): Promise<UserEntity> {
    const self = p.kind === 'user' && p.userId === id;
    if (!self && !this.permissions.isSiteAdmin(p)) throw notFound();
    return this.requireById(id);
  }

  /** Creates a user inside the caller's transaction. */
  async createInTransaction(
    manager: EntityManager,
    attrs: CreateUserAttributes,
    isSiteAdmin: boolean,
  ): Promise<UserEntity> {
    const now = new Date();
    const user = Object.assign(new UserEntity(), {
      id: newId('user'),
      username: attrs.username,
      email: attrs.email.toLowerCase(),
      passwordHash: await hashPassword(attrs.password),
      isSiteAdmin,
      createdAt: now,
      updatedAt: now,
    });
    try {
      return await this.repo.insert(manager, user);
    } catch (err) {
      if (isUniqueViolation(err))
        throw invalid('Username or email has already been taken', '/data/attributes/username');
      throw err;
    }
  }

  /** Site administrators add users to the installation. */
  async create(p: Principal, attrs: CreateUserAttributes): Promise<UserEntity> {
    if (!this.permissions.isSiteAdmin(p)) throw notFound();
    return inTransaction(this.ds, (m) => this.createInTransaction(m, attrs, attrs['is-site-admin'] ?? false));
  }
}
