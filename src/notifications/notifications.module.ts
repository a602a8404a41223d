import { Module, OnModuleInit } from '@nestjs/common';
import { InjectDataSource, TypeOrmModule } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { inTransaction } from '../common/sql/transaction';
import { OrganizationsModule } from '../organizations/organizations.module';
import { RunEventsRegistry } from '../runs/run-events.registry';
import { RunsModule } from '../runs/runs.module';
import { WrappedKeyHolders } from '../secrets/wrapped-key-holders';
import { UsersModule } from '../users/users.module';
import { WorkspacesModule } from '../workspaces/workspaces.module';
import { NotificationConfigurationEntity } from './entities/notification-configuration.entity';
import { NotificationDeliveryEntity } from './entities/notification-delivery.entity';
import { NotificationConfigurationsController } from './notification-configurations.controller';
import { NotificationConfigurationsRepository } from './notification-configurations.repository';
import { NotificationConfigurationsService } from './notification-configurations.service';
import { NotificationDeliveriesRepository } from './notification-deliveries.repository';
import { EnabledConfigurationsCache } from './enabled-configurations.cache';
import { NotificationDeliveryWorker } from './notification-delivery.worker';
import { NotificationMailer } from './notification-mailer';
import { NotificationOutbox } from './notification-outbox';
import { NotificationSender } from './notification-sender';
import { DestinationGuard, HostResolver } from './outbound/destination-guard';
import { OutboundConnector } from './outbound/outbound-connector';

/**
 * Notification configurations and their delivery: above runs, which it registers with to hear of
 * every run move in the move's transaction, and with the secrets module for the sealed tokens.
 */
@Module({
  imports: [
    TypeOrmModule.forFeature([NotificationConfigurationEntity, NotificationDeliveryEntity]),
    WorkspacesModule,
    UsersModule,
    OrganizationsModule,
    RunsModule,
  ],
  controllers: [NotificationConfigurationsController],
  providers: [
    NotificationConfigurationsRepository,
    NotificationDeliveriesRepository,
    NotificationConfigurationsService,
    NotificationSender,
    NotificationMailer,
    NotificationOutbox,
    EnabledConfigurationsCache,
    NotificationDeliveryWorker,
    DestinationGuard,
    HostResolver,
    OutboundConnector,
  ],
})
export class NotificationsModule implements OnModuleInit {
  constructor(
    private readonly repo: NotificationConfigurationsRepository,
    private readonly outbox: NotificationOutbox,
    private readonly runEvents: RunEventsRegistry,
    private readonly keyHolders: WrappedKeyHolders,
    @InjectDataSource() private readonly ds: DataSource,
  ) {}

  onModuleInit(): void {
    this.runEvents.register((manager, run, from, by) => this.outbox.onRunEvent(manager, run, from, by));
    this.keyHolders.register({
      name: 'notification tokens',
      batch: (after, limit) => this.repo.sealedTokens(after, limit),
      replace: (id, from, to) => inTransaction(this.ds, (m) => this.repo.replaceSealedToken(m, id, from, to)),
    });
  }
}
