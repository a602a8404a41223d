import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { Clock } from '../common/clock';
import { Principal } from '../common/auth/principal';
import { badRequest, invalid, invalidAttribute, notFound, Violations } from '../common/errors/domain-error';
import { newId } from '../common/ids';
import { ParsedBody } from '../common/jsonapi/body';
import { PageParams } from '../common/jsonapi/pagination';
import { Page } from '../common/sql/paginate';
import { inTransaction } from '../common/sql/transaction';
import { Secrets } from '../secrets/secrets.service';
import { UsersService } from '../users/users.service';
import { WorkspacesService } from '../workspaces/workspaces.service';
import { WorkspaceLocks } from '../workspaces/workspace-locks.service';
import {
  CreateNotificationConfigurationAttributes,
  UpdateNotificationConfigurationAttributes,
} from './dto/notification-configuration-attributes.dto';
import { NotificationConfigurationEntity } from './entities/notification-configuration.entity';
import { NotificationConfigurationsRepository } from './notification-configurations.repository';
import {
  EventNames,
  ACCEPTED_TRIGGERS,
  MAX_CONFIGURATIONS_PER_WORKSPACE,
  MAX_DELIVERY_RESPONSES,
} from './notification-rules';
import { Attempt, DeliveryResponse, NotificationSender, tokenContext } from './notification-sender';
import { DestinationGuard, DestinationRefused } from './outbound/destination-guard';

const NO_NAMES: EventNames = {
  workspaceName: null,
  organizationName: null,
  createdBy: null,
  updatedBy: null,
  runUrl: null,
};
const LIMIT_DETAIL = `A workspace can have at most ${MAX_CONFIGURATIONS_PER_WORKSPACE} notification configurations`;

/** The latest responses with `response` first, bounded. */
export function withResponse(json: string, response: DeliveryResponse): string {
  const kept = JSON.parse(json) as DeliveryResponse[];
  return JSON.stringify([response, ...kept].slice(0, MAX_DELIVERY_RESPONSES));
}

/**
 * Notification configurations of workspaces: managed by the workspace's admins. Enabling one (on
 * create or update) or `actions/verify` sends the verification payload first: a failed one
 * answers 400 and stores nothing (create) or enables nothing (update), as the real service does.
 */
@Injectable()
export class NotificationConfigurationsService {
  constructor(
    private readonly repo: NotificationConfigurationsRepository,
    private readonly workspaces: WorkspacesService,
    private readonly workspaceLocks: WorkspaceLocks,
    private readonly users: UsersService,
    private readonly guard: DestinationGuard,
    private readonly sender: NotificationSender,
    private readonly secrets: Secrets,
    private readonly clock: Clock,
    @InjectDataSource() private readonly ds: DataSource,
  ) {}

  async create(
    p: Principal,
    workspaceId: string,
    body: ParsedBody<CreateNotificationConfigurationAttributes>,
  ): Promise<NotificationConfigurationEntity> {
    const ws = await this.workspaces.requireAccess(p, workspaceId, 'admin');
    const a = body.attributes;
    const now = this.clock.now();
    const nc = Object.assign(new NotificationConfigurationEntity(), {
      id: newId('nc'),
      workspaceId: ws.id,
      name: a.name,
      destinationType: a['destination-type'],
      enabled: a.enabled ?? false,
      url: a.url ?? null,
      sealedToken: null as string | null,
      triggers: JSON.stringify([...new Set(a.triggers ?? [])]),
      emailAddresses: JSON.stringify(a['email-addresses'] ?? []),
      emailUserIds: JSON.stringify(await this.userIds(body, [])),
      deliveryResponses: '[]',
      createdAt: now,
      updatedAt: now,
    });
    const token = a.token || null;
    if (token) nc.sealedToken = this.secrets.seal(token, tokenContext(nc.id));
    await this.validate(nc);
    if ((await this.repo.countInWorkspace(this.ds.manager, ws.id)) >= MAX_CONFIGURATIONS_PER_WORKSPACE) {
      throw invalid(LIMIT_DETAIL);
    }
    if (nc.enabled && nc.destinationType !== 'email') {
      const attempt = await this.verification(nc, token);
      nc.deliveryResponses = withResponse(nc.deliveryResponses, attempt.response);
      if (attempt.outcome !== 'delivered') throw verificationFailed(attempt);
    }
    await inTransaction(this.ds, async (manager) => {
      if (!(await this.workspaceLocks.lockForQueue(manager, ws.id))) throw notFound();
      if ((await this.repo.countInWorkspace(manager, ws.id)) >= MAX_CONFIGURATIONS_PER_WORKSPACE) {
        throw invalid(LIMIT_DETAIL);
      }
      await this.repo.insert(manager, nc);
    });
    return nc;
  }

  async list(
    p: Principal,
    workspaceId: string,
    page: PageParams,
  ): Promise<Page<NotificationConfigurationEntity>> {
    const ws = await this.workspaces.requireAccess(p, workspaceId, 'admin');
    return this.repo.list(ws.id, page);
  }

  /** Shown to the workspace's admins only: the URL of a chat webhook is a credential. */
  async show(p: Principal, id: string): Promise<NotificationConfigurationEntity> {
    const nc = await this.repo.findById(id);
    if (!nc) throw notFound();
    await this.workspaces.requireAccess(p, nc.workspaceId, 'admin');
    return nc;
  }

  async update(
    p: Principal,
    id: string,
    body: ParsedBody<UpdateNotificationConfigurationAttributes>,
  ): Promise<NotificationConfigurationEntity> {
    const current = await this.show(p, id);
    const a = body.attributes;
    const next = Object.assign(new NotificationConfigurationEntity(), current, {
      name: a.name ?? current.name,
      destinationType: a['destination-type'] ?? current.destinationType,
      enabled: a.enabled ?? current.enabled,
      url: body.has('url') ? (a.url ?? null) : current.url,
      triggers: a.triggers ? JSON.stringify([...new Set(a.triggers)]) : current.triggers,
      emailAddresses: a['email-addresses'] ? JSON.stringify(a['email-addresses']) : current.emailAddresses,
      emailUserIds: JSON.stringify(await this.userIds(body, JSON.parse(current.emailUserIds) as string[])),
      updatedAt: this.clock.now(),
    });
    let token: string | null;
    if (body.has('token')) {
      token = a.token || null;
      next.sealedToken = token ? this.secrets.seal(token, tokenContext(next.id)) : null;
    } else {
      token = this.sender.tokenOf(current);
    }
    await this.validate(next);
    let verified: DeliveryResponse | null = null;
    if (next.enabled && next.destinationType !== 'email') {
      const attempt = await this.verification(next, token);
      if (attempt.outcome !== 'delivered') {
        await this.record(current.id, attempt.response);
        throw verificationFailed(attempt);
      }
      verified = attempt.response;
    }
    return inTransaction(this.ds, async (manager) => {
      if (!(await this.repo.lock(manager, id))) throw notFound();
      const fresh = await this.repo.findById(id, manager);
      if (!fresh) throw notFound();
      next.deliveryResponses = verified
        ? withResponse(fresh.deliveryResponses, verified)
        : fresh.deliveryResponses;
      await this.repo.update(manager, id, {
        name: next.name,
        destinationType: next.destinationType,
        enabled: next.enabled,
        url: next.url,
        sealedToken: next.sealedToken,
        triggers: next.triggers,
        emailAddresses: next.emailAddresses,
        emailUserIds: next.emailUserIds,
        deliveryResponses: next.deliveryResponses,
        updatedAt: next.updatedAt,
      });
      return next;
    });
  }

  /** Sends the verification payload now and records the answer; 400 when it failed. */
  async verify(p: Principal, id: string): Promise<NotificationConfigurationEntity> {
    const nc = await this.show(p, id);
    const attempt = await this.verification(nc, this.sender.tokenOf(nc));
    const updated = await this.record(nc.id, attempt.response);
    if (attempt.outcome !== 'delivered') throw verificationFailed(attempt);
    return updated;
  }

  async delete(p: Principal, id: string): Promise<void> {
    const nc = await this.show(p, id);
    await inTransaction(this.ds, (manager) => this.repo.delete(manager, nc.id));
  }

  /** Records a delivery's answer on its configuration (the latest few are kept). */
  async record(id: string, response: DeliveryResponse): Promise<NotificationConfigurationEntity> {
    return inTransaction(this.ds, async (manager) => {
      if (!(await this.repo.lock(manager, id))) throw notFound();
      const nc = await this.repo.findById(id, manager);
      if (!nc) throw notFound();
      nc.deliveryResponses = withResponse(nc.deliveryResponses, response);
      await this.repo.update(manager, id, { deliveryResponses: nc.deliveryResponses });
      return nc;
    });
  }

  private verification(nc: NotificationConfigurationEntity, token: string | null): Promise<Attempt> {
    return this.sender.send(nc, token, null, NO_NAMES, newId('ncd'));
  }

  /** The `users` relationship (email recipients): ids of existing users, else a 422. */
  private async userIds(body: ParsedBody<object>, current: string[]): Promise<string[]> {
    const refs = body.toMany('users', 'users');
    if (!refs) return current;
    const ids = [...new Set(refs.map((r) => r.id))];
    const found = new Set((await this.users.findByIds(ids)).map((u) => u.id));
    const missing = ids.filter((i) => !found.has(i));
    if (missing.length) throw invalid(`Users not found: ${missing.join(', ')}`, '/data/relationships/users');
    return ids;
  }

  /** Every rule of a configuration as it would be stored, the destination's address included. */
  private async validate(nc: NotificationConfigurationEntity): Promise<void> {
    const v = new Violations();
    const unknown = (JSON.parse(nc.triggers) as string[]).filter((t) => !ACCEPTED_TRIGGERS.includes(t));
    for (const t of unknown) v.attribute('triggers', `has an unknown trigger: ${t}`);
    if (nc.destinationType !== 'email') {
      if (!nc.url) v.attribute('url', "can't be blank");
    } else if (nc.url) {
      v.attribute('url', 'must be empty for email destinations');
    }
    if (nc.destinationType !== 'email' && (nc.emailAddresses !== '[]' || nc.emailUserIds !== '[]')) {
      v.add('Email addresses and users are for email destinations only', '/data/attributes/email-addresses');
    }
    v.throwIfAny();
    if (nc.url) {
      try {
        await this.guard.check(nc.url);
      } catch (err) {
        if (err instanceof DestinationRefused) throw invalidAttribute('url', err.message);
        throw err;
      }
    }
  }
}

function verificationFailed(attempt: Attempt) {
  return badRequest(`Verification failed: ${attempt.error ?? 'the destination did not accept the request'}`);
}
