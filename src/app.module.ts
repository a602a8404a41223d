import { Module } from '@nestjs/common';
import { APP_FILTER, APP_INTERCEPTOR } from '@nestjs/core';
import { TypeOrmModule } from '@nestjs/typeorm';
import { LoggerModule } from 'nestjs-pino';
import { randomUUID } from 'node:crypto';
import { AdminCatalogsModule } from './admin-catalogs/admin-catalogs.module';
import { BootstrapModule } from './bootstrap/bootstrap.module';
import { ClockModule } from './common/clock';
import { AuthModule } from './common/auth/auth.module';
import { JsonApiExceptionFilter } from './common/errors/jsonapi-exception.filter';
import { JsonApiInterceptor } from './common/jsonapi/jsonapi.interceptor';
import { AppConfig } from './config/app-config';
import { ConfigModule } from './config/config.module';
import { dataSourceOptions } from './database/data-source-options';
import { HealthModule } from './health/health.module';
import { OrganizationsModule } from './organizations/organizations.module';
import { ProjectsModule } from './projects/projects.module';
import { ReservedTagKeysModule } from './reserved-tag-keys/reserved-tag-keys.module';
import { RunTriggersModule } from './run-triggers/run-triggers.module';
import { StorageModule } from './storage/storage.module';
import { TagBindingsModule } from './tag-bindings/tag-bindings.module';
import { TeamsModule } from './teams/teams.module';
import { TokensModule } from './tokens/tokens.module';
import { UsersModule } from './users/users.module';
import { WorkspacesModule } from './workspaces/workspaces.module';

@Module({
  imports: [
    ConfigModule,
    LoggerModule.forRootAsync({
      inject: [AppConfig],
      useFactory: (config: AppConfig) => ({
        pinoHttp: {
          level: config.logLevel,
          genReqId: (req, res) => {
            const given = req.headers['x-request-id'];
            const id = typeof given === 'string' && /^[\w.-]{1,128}$/.test(given) ? given : randomUUID();
            res.setHeader('X-Request-Id', id);
            return id;
          },
          redact: {
            paths: ['req.headers.authorization', 'req.headers.cookie', 'req.query.token'],
            censor: '[redacted]',
          },
          serializers: {
            req: (req: { id: string; method: string; url: string }) => ({
              id: req.id,
              method: req.method,
              // Upload links carry their capability in the path; keep it out of the logs.
              url: req.url
                .replace(/\/uploads\/[^/?]+/, '/uploads/[redacted]')
                .replace(/token=[^&]+/, 'token=[redacted]'),
            }),
          },
        },
      }),
    }),
    TypeOrmModule.forRootAsync({
      inject: [AppConfig],
      useFactory: (config: AppConfig) => ({ ...dataSourceOptions(config), autoLoadEntities: true }),
    }),
    ClockModule,
    AuthModule,
    StorageModule,
    HealthModule,
    UsersModule,
    OrganizationsModule,
    TeamsModule,
    TokensModule,
    ProjectsModule,
    WorkspacesModule,
    RunTriggersModule,
    AdminCatalogsModule,
    ReservedTagKeysModule,
    TagBindingsModule,
    BootstrapModule,
  ],
  providers: [
    { provide: APP_FILTER, useClass: JsonApiExceptionFilter },
    { provide: APP_INTERCEPTOR, useClass: JsonApiInterceptor },
  ],
})
export class AppModule {}
