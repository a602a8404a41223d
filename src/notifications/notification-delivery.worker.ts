import { Injectable, Logger, OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { Clock } from '../common/clock';
import { inTransaction } from '../common/sql/transaction';
import { AppConfig } from '../config/app-config';
import { OrganizationsService } from '../organizations/organizations.service';
import { UsersService } from '../users/users.service';
import { WorkspacesService } from '../workspaces/workspaces.service';
import { NotificationConfigurationEntity } from './entities/notification-configuration.entity';
import { NotificationConfigurationsRepository } from './notification-configurations.repository';
import { withResponse } from './notification-configurations.service';
import { DueDelivery, NotificationDeliveriesRepository } from './notification-deliveries.repository';
import { backoffMs, EventNames, RunEvent } from './notification-rules';
import { Attempt, NotificationSender } from './notification-sender';

/**
 * How long a claim holds: twice the send's timeout and a second, so that a live node always
 * settles its attempt first; a node that died leaves it to any other node once it lapses.
 */
export function leaseMs(timeoutMs: number): number {
  return 2 * timeoutMs + 1000;
}

/**
 * Sends the outbox. Every node polls for due deliveries and claims each with a compare-and-set on
 * its attempt count, so one node sends it (a node that dies mid-send leaves a claim that lapses,
 * and the delivery is sent again: at least once, each attempt carrying the delivery's id). At most
 * NOTIFICATION_CONCURRENCY sends run at once per process, off every request's path.
 */
@Injectable()
export class NotificationDeliveryWorker implements OnApplicationBootstrap, OnApplicationShutdown {
  private timer?: NodeJS.Timeout;
  private polling = false;
  private pollAgain = false;
  private stopped = false;
  private readonly inflight = new Set<Promise<void>>();
  private readonly logger = new Logger('NotificationDeliveries');

  constructor(
    private readonly deliveries: NotificationDeliveriesRepository,
    private readonly configurations: NotificationConfigurationsRepository,
    private readonly sender: NotificationSender,
    private readonly workspaces: WorkspacesService,
    private readonly users: UsersService,
    private readonly organizations: OrganizationsService,
    private readonly config: AppConfig,
    private readonly clock: Clock,
    @InjectDataSource() private readonly ds: DataSource,
  ) {}

  onApplicationBootstrap(): void {
    this.timer = setInterval(() => void this.poll(), this.config.notifications.pollMs);
    this.timer.unref();
  }

  async onApplicationShutdown(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearInterval(this.timer);
    // Sends in flight end within their timeout; one cut short is sent again once its claim lapses.
    await Promise.allSettled([...this.inflight]);
  }

  /**
   * Claims what is due, up to the free send slots, and starts sending it; returns how many this
   * node took. A slot that frees while a poll runs asks for another pass of the same poll, so no
   * slot stays idle until the next tick while deliveries are due.
   */
  async poll(): Promise<number> {
    if (this.stopped) return 0;
    if (this.polling) {
      this.pollAgain = true;
      return 0;
    }
    this.polling = true;
    let taken = 0;
    try {
      do {
        this.pollAgain = false;
        taken += await this.takeDue();
      } while (this.pollAgain && !this.stopped);
    } catch (err) {
      this.logger.warn(`notification poll failed: ${String(err)}`);
    } finally {
      this.polling = false;
    }
    return taken;
  }

  /**
   * One pass: the due deliveries for the free slots, claimed in one transaction, their
   * configurations read in one query and the names their payloads show read once for the batch.
   */
  private async takeDue(): Promise<number> {
    const free = this.config.notifications.concurrency - this.inflight.size;
    if (free <= 0) return 0;
    const now = this.clock.now();
    const leaseUntil = new Date(now.getTime() + leaseMs(this.config.notifications.timeoutMs));
    const due = await this.deliveries.due(now, free);
    if (!due.length) return 0;
    const claimed = await inTransaction(this.ds, (m) => this.deliveries.claim(m, due, now, leaseUntil));
    if (!claimed.length) return 0;
    const configurations = new Map(
      (await this.configurations.findByIds(claimed.map((d) => d.configurationId))).map((nc) => [nc.id, nc]),
    );
    const events = new Map(claimed.map((d) => [d.id, JSON.parse(d.event) as RunEvent]));
    const names = this.names([...events.values()]);
    for (const d of claimed) {
      const sending = this.deliver(d, configurations.get(d.configurationId) ?? null, events.get(d.id)!, names)
        .catch((err) => this.logger.warn(`delivery ${d.id} failed: ${String(err)}`))
        .finally(() => {
          this.inflight.delete(sending);
          // A slot freed: take the next due delivery now rather than at the next tick.
          void this.poll();
        });
      this.inflight.add(sending);
    }
    return claimed.length;
  }

  private async deliver(
    claimed: DueDelivery,
    nc: NotificationConfigurationEntity | null,
    event: RunEvent,
    batchNames: Promise<(event: RunEvent) => EventNames>,
  ): Promise<void> {
    if (!nc) return;
    const settings = this.config.notifications;
    if (!nc.enabled) {
      await inTransaction(this.ds, (m) =>
        this.deliveries.settle(m, claimed.id, claimed.attempts, {
          status: 'failed',
          lastError: 'The configuration was disabled before the notification was sent',
          finishedAt: this.clock.now(),
        }),
      );
      return;
    }
    const names = (await batchNames)(event);
    const attempt = await this.sender.send(nc, this.sender.tokenOf(nc), event, names, claimed.id);
    const now = this.clock.now();
    const retry = attempt.outcome === 'retry' && claimed.attempts < settings.maxAttempts;
    await inTransaction(this.ds, async (manager) => {
      const settled = await this.deliveries.settle(manager, claimed.id, claimed.attempts, {
        ...this.settlement(attempt, retry, now, claimed.attempts),
      });
      if (!settled || !(await this.configurations.lock(manager, nc.id))) return false;
      const fresh = await this.configurations.findById(nc.id, manager);
      if (!fresh) return false;
      await this.configurations.update(manager, nc.id, {
        deliveryResponses: withResponse(fresh.deliveryResponses, attempt.response),
      });
      return true;
    });
  }

  private settlement(attempt: Attempt, retry: boolean, now: Date, attempts: number) {
    if (attempt.outcome === 'delivered') return { status: 'delivered', lastError: null, finishedAt: now };
    if (retry) {
      const { retryBaseMs, retryMaxMs } = this.config.notifications;
      return {
        status: 'due',
        lastError: attempt.error,
        dueAt: new Date(now.getTime() + backoffMs(attempts, retryBaseMs, retryMaxMs)),
      };
    }
    return { status: 'failed', lastError: attempt.error, finishedAt: now };
  }

  /**
   * The names the payloads of a batch show, read when it is sent: its workspaces, their
   * organizations and the users named, three queries for the whole batch.
   */
  private async names(events: RunEvent[]): Promise<(event: RunEvent) => EventNames> {
    const workspaces = new Map(
      (await this.workspaces.findByIds(events.map((e) => e.workspaceId))).map((w) => [w.id, w]),
    );
    const userIds = events.flatMap((e) => [e.runCreatedById, e.runUpdatedById ?? null]);
    const wanted = userIds.filter((id): id is string => id !== null);
    const users = new Map((wanted.length ? await this.users.findByIds(wanted) : []).map((u) => [u.id, u]));
    const organizations = new Map(
      (await this.organizations.findByIds([...workspaces.values()].map((w) => w.organizationId))).map((o) => [
        o.id,
        o,
      ]),
    );
    const base = this.config.baseUrl ?? `http://localhost:${this.config.port}`;
    const username = (id: string | null | undefined) => (id ? (users.get(id)?.username ?? null) : null);
    return (event) => {
      const ws = workspaces.get(event.workspaceId);
      return {
        workspaceName: ws?.name ?? null,
        organizationName: (ws && organizations.get(ws.organizationId)?.name) ?? null,
        createdBy: username(event.runCreatedById),
        updatedBy: username(event.runUpdatedById),
        runUrl: `${base}/api/v2/runs/${event.runId}`,
      };
    };
  }
}
