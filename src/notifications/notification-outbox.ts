import { Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import { Clock } from '../common/clock';
import { newId } from '../common/ids';
import { isoMillis } from '../common/jsonapi/timestamps';
import type { RunEntity } from '../runs/entities/run.entity';
import type { RunStatus } from '../runs/run-rules';
import { EnabledConfigurationsCache } from './enabled-configurations.cache';
import { NotificationDeliveryEntity } from './entities/notification-delivery.entity';
import { NotificationConfigurationsRepository } from './notification-configurations.repository';
import { NotificationDeliveriesRepository } from './notification-deliveries.repository';
import { raisedBy, RunEvent } from './notification-rules';

/**
 * Writes the notifications a run's move raises, in the transaction of the move: one outbox row per
 * enabled configuration of the workspace that subscribes to the trigger. The move and its
 * notifications commit together or not at all; sending is the delivery worker's, after the commit.
 */
@Injectable()
export class NotificationOutbox {
  constructor(
    private readonly configurations: NotificationConfigurationsRepository,
    private readonly enabled: EnabledConfigurationsCache,
    private readonly deliveries: NotificationDeliveriesRepository,
    private readonly clock: Clock,
  ) {}

  async onRunEvent(
    manager: EntityManager,
    run: RunEntity,
    from: RunStatus | null,
    by: string | null = null,
  ): Promise<void> {
    const raised = raisedBy(run, from === null);
    if (!raised) return;
    const enabled = await this.enabled.of(run.workspaceId, () =>
      this.configurations.enabledIn(manager, run.workspaceId),
    );
    const subscribed = enabled.filter((nc) => (JSON.parse(nc.triggers) as string[]).includes(raised.trigger));
    if (!subscribed.length) return;
    const event: RunEvent = {
      runId: run.id,
      runMessage: run.message,
      runCreatedAt: isoMillis(run.createdAt)!,
      runCreatedById: run.createdById,
      runUpdatedById: by,
      runStatus: run.status,
      runUpdatedAt: isoMillis(run.updatedAt)!,
      workspaceId: run.workspaceId,
      ...raised,
    };
    const now = this.clock.now();
    const json = JSON.stringify(event);
    await this.deliveries.insertMany(
      manager,
      subscribed.map((nc) =>
        Object.assign(new NotificationDeliveryEntity(), {
          id: newId('ncd'),
          configurationId: nc.id,
          trigger: raised.trigger,
          event: json,
          status: 'due',
          attempts: 0,
          dueAt: now,
          lastError: null,
          createdAt: now,
          finishedAt: null,
        }),
      ),
    );
  }
}
