import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { PermissionService } from '../common/auth/permission.service';
import { Principal } from '../common/auth/principal';
import { invalid, notFound } from '../common/errors/domain-error';
import { inTransaction } from '../common/sql/transaction';
import { OrganizationsService } from '../organizations/organizations.service';
import { TeamsService } from '../teams/teams.service';
import { TokensService } from '../tokens/tokens.service';
import { UsersService } from '../users/users.service';

/**
 * Removing a user from the installation, which touches several owners' tables:
 * - their user tokens and team memberships go with the user row (foreign keys cascade);
 * - team and organization tokens they issued keep working, without a `created-by`;
 * - agent tokens they issued keep working, without a `created-by` (the key sets it to null);
 * - runs and configuration versions keep the id of the user who created them, as history;
 * - the audit trail keeps their username as it was.
 * Refused (422) for the caller's own account and for the only member of an organization's owners
 * team, which would leave that organization without anyone to manage it.
 */
@Injectable()
export class AdminUsersService {
  constructor(
    private readonly users: UsersService,
    private readonly teams: TeamsService,
    private readonly tokens: TokensService,
    private readonly organizations: OrganizationsService,
    private readonly permissions: PermissionService,
    @InjectDataSource() private readonly ds: DataSource,
  ) {}

  async delete(p: Principal, id: string): Promise<void> {
    this.users.requireSiteAdmin(p);
    if (p.kind === 'user' && p.userId === id) throw invalid('You cannot delete your own account');
    const soleOwnerOf = await inTransaction(this.ds, async (m) => {
      if (!(await this.users.lockForDelete(m, id))) throw notFound();
      const owned = await this.teams.solelyOwnedOrganizationIds(m, id);
      if (owned.length) return owned;
      await this.tokens.forgetCreator(m, id);
      await this.users.deleteRow(m, id);
      return [];
    });
    if (soleOwnerOf.length) {
      // Named after the transaction: it may not ask for a second connection.
      const names = (await this.organizations.findByIds(soleOwnerOf)).map((o) => o.name).sort();
      throw invalid(
        `The user is the only owner of ${names.join(', ')}; add another owner or delete the organization first`,
      );
    }
  }
}
