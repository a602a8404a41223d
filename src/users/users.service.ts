import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { PermissionService } from '../common/auth/permission.service';
import { Principal } from '../common/auth/principal';
import { inTransaction } from '../common/sql/transaction';
import { whenDuplicate } from '../common/errors/db-errors';
import { badRequest, DomainError, invalid, notFound } from '../common/errors/domain-error';
import { PageParams } from '../common/jsonapi/pagination';
import { Page } from '../common/sql/paginate';
import { newId } from '../common/ids';
import { CreateUserAttributes } from './dto/user-attributes.dto';
import { UserEntity } from './entities/user.entity';
import { PasswordHasher } from './password';
import { USERNAME_PATTERN } from './dto/user-attributes.dto';
import { UserFilter, UsersRepository, UserStatusCounts } from './users.repository';

@Injectable()
export class UsersService {
  constructor(
    private readonly repo: UsersRepository,
    private readonly permissions: PermissionService,
    private readonly passwords: PasswordHasher,
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

  /**
   * The stored form of a new user's password (`createInTransaction`): hashed before the transaction
   * begins, since a hash takes the better part of a second and, on SQLite, this process's other
   * statements wait while a transaction is open.
   */
  hashPassword(password: string): Promise<string> {
    return this.passwords.hash(password);
  }

  /** Creates a user inside the caller's transaction, with the hash of its password (`hashPassword`). */
  async createInTransaction(
    manager: EntityManager,
    attrs: CreateUserAttributes,
    isSiteAdmin: boolean,
    passwordHash: string,
  ): Promise<UserEntity> {
    const now = new Date();
    const user = Object.assign(new UserEntity(), {
      id: newId('user'),
      username: attrs.username,
      email: attrs.email.toLowerCase(),
      passwordHash,
      isSiteAdmin,
      createdAt: now,
      updatedAt: now,
    });
    return whenDuplicate(
      () => this.repo.insert(manager, user),
      () =>
        invalid('Username or email has already been taken', '/data/attributes/username', 'USERNAME_TAKEN'),
    );
  }

  /** Every user of the installation, for site administrators; the totals beside. */
  async listForAdmin(
    p: Principal,
    filter: UserFilter,
    page: PageParams,
  ): Promise<{ page: Page<UserEntity>; counts: UserStatusCounts }> {
    this.requireSiteAdmin(p);
    const [users, counts] = await Promise.all([this.repo.list(filter, page), this.repo.statusCounts()]);
    return { page: users, counts };
  }

  /** 404 for anyone but a site administrator, as the real service's admin routes answer. */
  requireSiteAdmin(p: Principal): void {
    if (!this.permissions.isSiteAdmin(p)) throw notFound();
  }

  /**
   * Suspends or unsuspends a user; 400 when already so (as the real service). Administrators cannot
   * suspend themselves, so an installation never loses its last way in by accident.
   */
  async setSuspended(p: Principal, id: string, suspended: boolean): Promise<UserEntity> {
    this.requireSiteAdmin(p);
    if (suspended && p.kind === 'user' && p.userId === id)
      throw invalid('You cannot suspend your own account');
    const user = await inTransaction(this.ds, async (m) => {
      const row = await this.repo.lock(m, id);
      if (!row) throw notFound();
      if (row.isSuspended === suspended)
        throw badRequest(suspended ? 'The user is already suspended' : 'The user is not suspended');
      const changes = { isSuspended: suspended, updatedAt: new Date() };
      await this.repo.update(m, id, changes);
      return Object.assign(row, changes);
    });
    return user;
  }

  /**
   * Grants or revokes site administration; 400 when already so (as the real service). Administrators
   * cannot revoke their own, so the installation keeps at least the one who asks.
   */
  async setSiteAdmin(p: Principal, id: string, admin: boolean): Promise<UserEntity> {
    this.requireSiteAdmin(p);
    if (!admin && p.kind === 'user' && p.userId === id)
      throw invalid('You cannot revoke your own site administration');
    const user = await inTransaction(this.ds, async (m) => {
      const row = await this.repo.lock(m, id);
      if (!row) throw notFound();
      if (row.isSiteAdmin === admin)
        throw badRequest(
          admin ? 'The user is already a site administrator' : 'The user is not a site administrator',
        );
      const changes = { isSiteAdmin: admin, updatedAt: new Date() };
      await this.repo.update(m, id, changes);
      return Object.assign(row, changes);
    });
    return user;
  }

  /** Locks the user row for a delete that other modules' cleanup shares; null when there is none. */
  lockForDelete(manager: EntityManager, id: string): Promise<UserEntity | null> {
    return this.repo.lock(manager, id);
  }

  /** Removes the row; its user tokens and team memberships go with it (foreign keys cascade). */
  deleteRow(manager: EntityManager, id: string): Promise<void> {
    return this.repo.deleteById(manager, id);
  }

  /**
   * The user whose username and password these are, or the 401 every failure answers with (unknown
   * user, wrong password, suspended: the caller cannot tell which, nor by the time it took). A hash
   * made otherwise than the configured cost would make it now is replaced by one that is.
   */
  async verifyLogin(username: string, password: string): Promise<UserEntity> {
    // A name no user can have is not looked up: MariaDB's collation would find `alice` for
    // `alice ` or `alíce`, and each spelling would be a username of its own to the login throttle.
    const user = USERNAME_PATTERN.test(username) ? await this.repo.findByUsername(username) : null;
    if (!user) {
      await this.passwords.verifyAgainstNobody(password);
      throw loginFailed();
    }
    if (!(await this.passwords.verify(password, user.passwordHash)) || user.isSuspended) throw loginFailed();
    if (this.passwords.needsRehash(user.passwordHash)) {
      const passwordHash = await this.passwords.hash(password);
      await inTransaction(this.ds, (m) => this.repo.update(m, user.id, { passwordHash }));
      user.passwordHash = passwordHash;
    }
    return user;
  }

  /** Site administrators add users to the installation. */
  async create(p: Principal, attrs: CreateUserAttributes): Promise<UserEntity> {
    if (!this.permissions.isSiteAdmin(p)) throw notFound();
    const passwordHash = await this.hashPassword(attrs.password);
    return inTransaction(this.ds, (m) =>
      this.createInTransaction(m, attrs, attrs['is-site-admin'] ?? false, passwordHash),
    );
  }
}

function loginFailed(): DomainError {
  return new DomainError('unauthorized', [{ detail: 'Invalid username or password' }]);
}
