import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { OrganizationsModule } from '../organizations/organizations.module';
import { AuditController } from './audit.controller';
import { AuditRecorder } from './audit.recorder';
import { AuditRepository } from './audit.repository';
import { AuditService } from './audit.service';
import { AuditWatcher } from './audit.watcher';
import { AuditEventCountEntity } from './entities/audit-event-count.entity';
import { AuditEventDayCountEntity } from './entities/audit-event-day-count.entity';
import { AuditEventEntity } from './entities/audit-event.entity';

/**
 * The audit trail: owns `audit_events`, records every write through a watcher of every request
 * (so no route can forget it, and no refusal before routing escapes it), and serves the trail.
 * Nothing imports this module.
 */
@Module({
  imports: [
    TypeOrmModule.forFeature([AuditEventEntity, AuditEventCountEntity, AuditEventDayCountEntity]),
    OrganizationsModule,
  ],
  controllers: [AuditController],
  providers: [AuditRepository, AuditRecorder, AuditService, AuditWatcher],
})
export class AuditModule {}
