import cluster from 'node:cluster';
import { Injectable, Logger, OnApplicationBootstrap } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { timingSafeEqual } from 'node:crypto';
import { DataSource } from 'typeorm';
import { randomBase62 } from '../common/ids';
import { inTransaction } from '../common/sql/transaction';
import { DomainError, notFound } from '../common/errors/domain-error';
import { AppConfig } from '../config/app-config';
import { TokensService } from '../tokens/tokens.service';
import { UsersService } from '../users/users.service';
import { InitialAdminBody } from './dto/initial-admin.dto';
import { SystemSettingsRepository } from './system-settings.repository';

const IACT_KEY = 'initial-admin-creation-token';

/**
 * First-administrator bootstrap as self-hosted installs do it: an initial admin creation token
 * (IACT) readable only from loopback, exchanged exactly once for the first site admin and its token.
 */
@Injectable()
export class BootstrapService implements OnApplicationBootstrap {
  private readonly logger = new Logger('Bootstrap');

  constructor(
    private readonly settings: SystemSettingsRepository,
    private readonly users: UsersService,
    private readonly tokens: TokensService,
    private readonly config: AppConfig,
    @InjectDataSource() private readonly ds: DataSource,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    if (await this.users.anySiteAdmin()) return;
    await this.settings.insertIfAbsent(IACT_KEY, randomBase62(32));
    // With several workers the first one says it; the others (and replacements) stay quiet.
    if (cluster.isWorker && cluster.worker && cluster.worker.id > 1) return;
    const url = `http://127.0.0.1:${this.config.port}`;
    this.logger.log(
      `No administrator yet. On this machine run: curl ${url}/admin/retrieve-iact  then  ` +
        `curl -X POST "${url}/admin/initial-admin-user?token=<IACT>" -H 'Content-Type: application/json' ` +
        `-d '{"username":"admin","email":"admin@example.com","password":"<at least 10 characters>"}'`,
    );
  }

  /** The IACT, while no administrator exists. */
  async retrieveIact(): Promise<string> {
    if (await this.users.anySiteAdmin()) throw notFound();
    const iact = await this.settings.get(IACT_KEY);
    if (!iact) throw notFound();
    return iact;
  }

  async createInitialAdmin(
    token: string | undefined,
    body: InitialAdminBody,
  ): Promise<{ userId: string; token: string }> {
    const refused = new DomainError('unauthorized', [
      { detail: 'the initial admin creation token is invalid or has been used', parameter: 'token' },
    ]);
    const stored = await this.settings.get(IACT_KEY);
    if (!token || !stored || !sameSecret(token, stored)) throw refused;
    const passwordHash = await this.users.hashPassword(body.password);
    return inTransaction(this.ds, async (manager) => {
      if (!(await this.settings.consume(manager, IACT_KEY, stored))) throw refused;
      if (await this.users.anySiteAdmin(manager)) throw refused;
      const user = await this.users.createInTransaction(manager, body, true, passwordHash);
      const issued = await this.tokens.issue(
        manager,
        'user',
        { userId: user.id },
        { description: 'initial admin' },
      );
      return { userId: user.id, token: issued.secret };
    });
  }
}

function sameSecret(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}
