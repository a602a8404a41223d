import { Module, OnModuleInit } from '@nestjs/common';
import { InjectDataSource, TypeOrmModule } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { inTransaction } from '../common/sql/transaction';
import { OrganizationsModule } from '../organizations/organizations.module';
import { WrappedKeyHolders } from '../secrets/wrapped-key-holders';
import { ProjectsModule } from '../projects/projects.module';
import { WorkspacesModule } from '../workspaces/workspaces.module';
import { EffectiveVariablesService } from './effective-variables.service';
import { VariableSetsController } from './variable-sets.controller';
import { VariableSetsRepository } from './variable-sets.repository';
import { VariableSetsService } from './variable-sets.service';
import { VarsetAccess } from './varset-access';
import { VarsetVariablesController } from './varset-variables.controller';
import { VarsetVariablesService } from './varset-variables.service';
import { RunVariableEntity } from './entities/run-variable.entity';
import { ReachingVariablesRepository } from './reaching-variables.repository';
import { RunSnapshotsService } from './run-snapshots.service';
import { VariableSetEntity } from './entities/variable-set.entity';
import { VariableEntity } from './entities/variable.entity';
import { VarsetProjectEntity, VarsetWorkspaceEntity } from './entities/varset-attachment.entity';
import { RunVariablesService } from './run-variables.service';
import { VariableWrites } from './variable-writes';
import { VariablesRepository } from './variables.repository';
import { WorkspaceVariablesController } from './workspace-variables.controller';
import { WorkspaceVariablesService } from './workspace-variables.service';

/**
 * Workspace variables, variable sets and the variables that reach a workspace after precedence.
 * Sensitive values are sealed with the secrets module, which a rotation re-wraps (registered here).
 */
@Module({
  imports: [
    TypeOrmModule.forFeature([
      VariableEntity,
      VariableSetEntity,
      VarsetWorkspaceEntity,
      VarsetProjectEntity,
      RunVariableEntity,
    ]),
    OrganizationsModule,
    WorkspacesModule,
    ProjectsModule,
  ],
  controllers: [WorkspaceVariablesController, VariableSetsController, VarsetVariablesController],
  providers: [
    VariablesRepository,
    VariableSetsRepository,
    VariableWrites,
    VarsetAccess,
    WorkspaceVariablesService,
    VariableSetsService,
    VarsetVariablesService,
    EffectiveVariablesService,
    RunVariablesService,
    RunSnapshotsService,
    ReachingVariablesRepository,
  ],
  exports: [WorkspaceVariablesService, EffectiveVariablesService, RunVariablesService, RunSnapshotsService],
})
export class VariablesModule implements OnModuleInit {
  constructor(
    private readonly repo: VariablesRepository,
    private readonly runVariables: RunVariablesService,
    private readonly keyHolders: WrappedKeyHolders,
    @InjectDataSource() private readonly ds: DataSource,
  ) {}

  onModuleInit(): void {
    this.keyHolders.register({
      name: 'sensitive variables',
      batch: (after, limit) => this.repo.sealedValues(after, limit),
      replace: (id, from, to) => inTransaction(this.ds, (m) => this.repo.replaceSealedValue(m, id, from, to)),
    });
    this.keyHolders.register({
      name: 'run variables',
      batch: (after, limit) => this.runVariables.sealedValues(after, limit),
      replace: (id, from, to) =>
        inTransaction(this.ds, (m) => this.runVariables.replaceSealedValue(m, id, from, to)),
    });
  }
}
