import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { AgentPoolsModule } from './runs/pools/agent-pools.module';
import { AdminUsersModule } from './admin-users/admin-users.module';
import { AuditModule } from './audit/audit.module';
import { AdminCatalogsModule } from './admin-catalogs/admin-catalogs.module';
import { BootstrapModule } from './bootstrap/bootstrap.module';
import { ClockModule } from './common/clock';
import { AuthModule } from './common/auth/auth.module';
import { CacheModule } from './common/cache/cache.module';
import { RateLimitModule } from './common/rate-limit/rate-limit.module';
import { AppConfig } from './config/app-config';
import { ConfigModule } from './config/config.module';
import { dataSourceOptions, newDataSource } from './persistence/data-source-options';
import { withServerFlavour } from './persistence/server-flavour';
import { HealthModule } from './health/health.module';
import { NotificationsModule } from './notifications/notifications.module';
import { ObservabilityModule } from './observability/observability.module';
import { OrganizationLifecycleModule } from './organization-lifecycle/organization-lifecycle.module';
import { PoliciesModule } from './policies/policies.module';
import { PolicySetsModule } from './policy-sets/policy-sets.module';
import { ProjectsModule } from './projects/projects.module';
import { RegistryModule } from './registry/registry.module';
import { ReservedTagKeysModule } from './reserved-tag-keys/reserved-tag-keys.module';
import { RunTriggersModule } from './run-triggers/run-triggers.module';
import { RunsModule } from './runs/runs.module';
import { PolicyChecksModule } from './runs/policy-checks/policy-checks.module';
import { HttpPipelineModule } from './http/http-pipeline.module';
import { SecretsModule } from './secrets/secrets.module';
import { StateVersionsModule } from './state-versions/state-versions.module';
import { StorageModule } from './storage/storage.module';
import { TagBindingRoutesModule } from './tag-binding-routes/tag-binding-routes.module';
import { TeamsModule } from './teams/teams.module';
import { TokensModule } from './tokens/tokens.module';
import { CliLoginModule } from './cli-login/cli-login.module';
import { UsersModule } from './users/users.module';
import { VariablesModule } from './variables/variables.module';
import { WorkspacesModule } from './workspaces/workspaces.module';

@Module({
  imports: [
    ConfigModule,
    ObservabilityModule,
    TypeOrmModule.forRootAsync({
      inject: [AppConfig],
      useFactory: (config: AppConfig) => ({
        ...dataSourceOptions(config),
        autoLoadEntities: true,
        retryAttempts: config.dbConnectRetries,
      }),
      // Asked at every connection attempt (those are retried): the server decides the dialect.
      dataSourceFactory: async (options) => newDataSource(await withServerFlavour(options!)),
    }),
    ClockModule,
    CacheModule,
    HttpPipelineModule,
    RateLimitModule,
    AuthModule,
    StorageModule,
    SecretsModule,
    HealthModule,
    UsersModule,
    OrganizationLifecycleModule,
    TeamsModule,
    TokensModule,
    CliLoginModule,
    AdminUsersModule,
    AuditModule,
    ProjectsModule,
    WorkspacesModule,
    RunTriggersModule,
    RunsModule,
    PolicyChecksModule,
    StateVersionsModule,
    VariablesModule,
    NotificationsModule,
    AgentPoolsModule,
    AdminCatalogsModule,
    ReservedTagKeysModule,
    TagBindingRoutesModule,
    PoliciesModule,
    PolicySetsModule,
    BootstrapModule,
    RegistryModule,
  ],
})
export class AppModule {}
