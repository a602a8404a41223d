import { MiddlewareConsumer, Module, NestModule } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { OrganizationsModule } from '../organizations/organizations.module';
import { AuditController } from './audit.controller';
import { AuditMiddleware } from './audit.middleware';
import { AuditRecorder } from './audit.recorder';
import { AuditRepository } from './audit.repository';
import { AuditService } from './audit.service';
import { AuditEventEntity } from './entities/audit-event.entity';

/**
 * The audit trail: owns `audit_events`, records every write through a middleware mounted on every
 * path (so no route can forget it), and serves the trail. Nothing imports this module.
 */
@Module({
  imports: [TypeOrmModule.forFeature([AuditEventEntity]), OrganizationsModule],
  controllers: [AuditController],
  providers: [AuditRepository, AuditRecorder, AuditService, AuditMiddleware],
})
export class AuditModule implements NestModule {
  configure(consumer: MiddlewareConsumer): void {
    consumer.apply(AuditMiddleware).forRoutes('*');
  }
}
