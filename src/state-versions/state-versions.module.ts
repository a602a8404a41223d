import { Module, OnModuleInit } from '@nestjs/common';
import { InjectDataSource, TypeOrmModule } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { inTransaction } from '../common/sql/transaction';
import { RunsModule } from '../runs/runs.module';
import { WrappedKeyHolders } from '../secrets/wrapped-key-holders';
import { UsersModule } from '../users/users.module';
import { WorkspaceBlobsRegistry } from '../workspaces/workspace-blobs.registry';
import { WorkspaceRelationsRegistry } from '../workspaces/workspace-relations.registry';
import { WorkspaceUnlockHooks } from '../workspaces/workspace-unlock.registry';
import { WorkspacesModule } from '../workspaces/workspaces.module';
import { StateVersionOutputEntity } from './entities/state-version-output.entity';
import { StateVersionEntity } from './entities/state-version.entity';
import { RunStateHandoff } from './run-state-handoff';
import { stateBlobPrefix, StateContent } from './state-content';
import { StateVersionOutputsController } from './state-version-outputs.controller';
import { StateVersionsController } from './state-versions.controller';
import { StateVersionsPresenter } from './state-versions.presenter';
import { StateVersionsRepository } from './state-versions.repository';
import { StateVersionsService } from './state-versions.service';
import { StateWritesService } from './state-writes.service';

/**
 * State versions and their outputs: above workspaces and runs. It registers with them at start-up
 * what state means to their operations (an unlock, a workspace's deletion), and with the secrets
 * module where its wrapped data keys are.
 */
@Module({
  imports: [
    TypeOrmModule.forFeature([StateVersionEntity, StateVersionOutputEntity]),
    WorkspacesModule,
    RunsModule,
    UsersModule,
  ],
  controllers: [StateVersionsController, StateVersionOutputsController],
  providers: [
    StateVersionsRepository,
    StateContent,
    StateVersionsService,
    StateWritesService,
    StateVersionsPresenter,
    RunStateHandoff,
  ],
})
export class StateVersionsModule implements OnModuleInit {
  constructor(
    private readonly repo: StateVersionsRepository,
    private readonly writes: StateWritesService,
    private readonly unlockHooks: WorkspaceUnlockHooks,
    private readonly workspaceBlobs: WorkspaceBlobsRegistry,
    private readonly keyHolders: WrappedKeyHolders,
    private readonly relations: WorkspaceRelationsRegistry,
    private readonly presenter: StateVersionsPresenter,
    @InjectDataSource() private readonly ds: DataSource,
  ) {}

  onModuleInit(): void {
    this.unlockHooks.register((manager, workspaceId, forced) =>
      this.writes.onUnlock(manager, workspaceId, forced),
    );
    // A workspace's `include=current-state-version` and `include=outputs`.
    this.relations.registerState({
      versions: (ids) => this.presenter.currentVersions(ids),
      outputs: (ids) => this.presenter.workspaceOutputs(ids),
    });
    // A deleted workspace's (or organization's) state files go with it.
    this.workspaceBlobs.register(async (_manager, workspaceIds) => workspaceIds.map(stateBlobPrefix));
    for (const [name, column] of [
      ['state files', 'stateDataKey'],
      ['JSON state files', 'jsonStateDataKey'],
    ] as const) {
      this.keyHolders.register({
        name,
        batch: (after, limit) => this.repo.dataKeys(column, after, limit),
        replace: (id, from, to) => this.repo.replaceDataKey(column, id, from, to),
      });
    }
    this.keyHolders.register({
      name: 'state version outputs',
      batch: (after, limit) => this.repo.sealedValues(after, limit),
      replace: (id, from, to) => inTransaction(this.ds, (m) => this.repo.replaceSealedValue(m, id, from, to)),
    });
  }
}
