import { Injectable, Logger, OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { ChangeEpoch } from '../common/cache/change-epoch';
import { Clock } from '../common/clock';
import { inTransaction } from '../common/sql/transaction';
import { AppConfig } from '../config/app-config';
import { OrganizationsService } from '../organizations/organizations.service';
import { UsersService } from '../users/users.service';
import { WorkspacesService } from '../workspaces/workspaces.service';
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
    private readonly epoch: ChangeEpoch,
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

  /** Claims what is due, up to the free send slots; returns how many this node took. */
  async poll(): Promise<number> {
    if (this.polling || this.stopped) return 0;
    this.polling = true;
    let taken = 0;
    try {
      const free = this.config.notifications.concurrency - this.inflight.size;
      if (free <= 0) return 0;
      const now = this.clock.now();
      const leaseUntil = new Date(now.getTime() + leaseMs(this.config.notifications.timeoutMs));
      for (const due of await this.deliveries.due(now, free * 2)) {
        if (taken >= free) break;
        if (!(await this.deliveries.claim(due.id, due.attempts, now, leaseUntil))) continue;
        taken += 1;
        const sending = this.deliver({ id: due.id, attempts: due.attempts + 1 })
          .catch((err) => this.logger.warn(`delivery ${due.id} failed: ${String(err)}`))
          .finally(() => {
            this.inflight.delete(sending);
            // A slot freed: take the next due delivery now rather than at the next tick.
            void this.poll();
          });
        this.inflight.add(sending);
      }
    } catch (err) {
      this.logger.warn(`notification poll failed: ${String(err)}`);
    } finally {
      this.polling = false;
    }
    return taken;
  }

  private async deliver(claimed: DueDelivery): Promise<void> {
    const delivery = await this.deliveries.findById(claimed.id);
    const nc = delivery ? await this.configurations.findById(delivery.configurationId) : null;
    if (!delivery || !nc) return;
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
    const event = JSON.parse(delivery.event) as RunEvent;
    const attempt = await this.sender.send(
      nc,
      this.sender.tokenOf(nc),
      event,
      await this.names(event),
      delivery.id,
    );
    const now = this.clock.now();
    const retry = attempt.outcome === 'retry' && claimed.attempts < settings.maxAttempts;
    const recorded = await inTransaction(this.ds, async (manager) => {
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
    // Readers of the configuration must not be answered from caches made before its new response.
    if (recorded) await this.epoch.advance('changes');
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

  /** The names a payload shows, read when it is sent. */
  private async names(event: RunEvent): Promise<EventNames> {
    const [ws] = await this.workspaces.findByIds([event.workspaceId]);
    const [user] = event.runCreatedById ? await this.users.findByIds([event.runCreatedById]) : [];
    const [org] = ws ? await this.organizations.findByIds([ws.organizationId]) : [];
    const base = this.config.baseUrl ?? `http://localhost:${this.config.port}`;
    return {
      workspaceName: ws?.name ?? null,
      organizationName: org?.name ?? null,
      createdBy: user?.username ?? null,
      runUrl: `${base}/api/v2/runs/${event.runId}`,
    };
  }
}
