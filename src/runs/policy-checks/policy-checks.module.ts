import { Module, OnModuleInit } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { OrganizationsModule } from '../../organizations/organizations.module';
import { PolicySetsModule } from '../../policy-sets/policy-sets.module';
import { RunsModule } from '../runs.module';
import { WorkspaceBlobsRegistry } from '../../workspaces/workspace-blobs.registry';
import { WorkspacesModule } from '../../workspaces/workspaces.module';
import { PolicyCheckEntity } from './entities/policy-check.entity';
import { PolicyEvaluationEntity } from './entities/policy-evaluation.entity';
import { PolicyOutcomeEntity } from './entities/policy-outcome.entity';
import { PolicyCheckGate, policyCheckBlobPrefix } from './policy-check-gate';
import { PolicyChecksController } from './policy-checks.controller';
import { PolicyChecksRepository } from './policy-checks.repository';
import { PolicyChecksService } from './policy-checks.service';
import { PolicyEvaluationLinks } from './policy-evaluation-links';

/**
 * Policy checks of runs: above runs and policy sets. It registers its gate with the runs module
 * (runs/policy-gate.registry.ts) and moves runs through RunPolicyTransitions.
 */
@Module({
  imports: [
    TypeOrmModule.forFeature([PolicyCheckEntity, PolicyEvaluationEntity, PolicyOutcomeEntity]),
    OrganizationsModule,
    WorkspacesModule,
    PolicySetsModule,
    RunsModule,
  ],
  controllers: [PolicyChecksController],
  providers: [PolicyChecksRepository, PolicyEvaluationLinks, PolicyCheckGate, PolicyChecksService],
})
export class PolicyChecksModule implements OnModuleInit {
  constructor(
    private readonly workspaceBlobs: WorkspaceBlobsRegistry,
    private readonly repo: PolicyChecksRepository,
  ) {}

  /** Deleting a workspace (or its organization) removes the code copies of its checks too. */
  onModuleInit(): void {
    this.workspaceBlobs.register(async (manager, workspaceIds) =>
      (await this.repo.idsInWorkspaces(manager, workspaceIds)).map(policyCheckBlobPrefix),
    );
  }
}
