import { Module, OnModuleInit } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { AdminCatalogsModule } from '../admin-catalogs/admin-catalogs.module';
import { idPrefixCollector, OrganizationBlobsRegistry } from '../organizations/organization-blobs.registry';
import { policySetBlobPrefix } from './policy-sets.service';
import { OrganizationsModule } from '../organizations/organizations.module';
import { PoliciesModule } from '../policies/policies.module';
import { PolicySetMemberships } from '../policies/policy-set-memberships';
import { ProjectsModule } from '../projects/projects.module';
import { WorkspacesModule } from '../workspaces/workspaces.module';
import { PolicySetPolicyEntity } from './entities/policy-set-policy.entity';
import { PolicySetProjectEntity } from './entities/policy-set-project.entity';
import { PolicySetVersionEntity } from './entities/policy-set-version.entity';
import { PolicySetWorkspaceExclusionEntity } from './entities/policy-set-workspace-exclusion.entity';
import { PolicySetWorkspaceEntity } from './entities/policy-set-workspace.entity';
import { PolicySetEntity } from './entities/policy-set.entity';
import { PolicySetMembers } from './policy-set-members';
import { PolicySetRelationshipsController } from './policy-set-relationships.controller';
import { PolicySetRelationshipsService } from './policy-set-relationships.service';
import { PolicySetVersionsController } from './policy-set-versions.controller';
import { PolicySetVersionsRepository } from './policy-set-versions.repository';
import { PolicySetVersionsService } from './policy-set-versions.service';
import { PolicySetPresenter } from './policy-set.presenter';
import { PolicySetsController } from './policy-sets.controller';
import { PolicySetsRepository } from './policy-sets.repository';
import { PolicySetsService } from './policy-sets.service';
import { PolicyEngineUsage } from './policy-engine-usage';
import { PolicySetSnapshots } from './policy-set-snapshots';
import { PolicyToolVersionValidator } from './policy-tool-version.validator';

@Module({
  imports: [
    TypeOrmModule.forFeature([
      PolicySetEntity,
      PolicySetPolicyEntity,
      PolicySetProjectEntity,
      PolicySetWorkspaceEntity,
      PolicySetWorkspaceExclusionEntity,
      PolicySetVersionEntity,
    ]),
    AdminCatalogsModule,
    OrganizationsModule,
    PoliciesModule,
    ProjectsModule,
    WorkspacesModule,
  ],
  controllers: [PolicySetsController, PolicySetRelationshipsController, PolicySetVersionsController],
  providers: [
    PolicySetsRepository,
    PolicySetVersionsRepository,
    PolicySetPresenter,
    PolicySetMembers,
    PolicySetsService,
    PolicySetRelationshipsService,
    PolicySetVersionsService,
    PolicyToolVersionValidator,
    PolicyEngineUsage,
    PolicySetSnapshots,
  ],
  exports: [PolicySetsService, PolicySetSnapshots],
})
export class PolicySetsModule implements OnModuleInit {
  constructor(
    private readonly organizationBlobs: OrganizationBlobsRegistry,
    private readonly memberships: PolicySetMemberships,
    private readonly repo: PolicySetsRepository,
  ) {}

  /** Deleting an organization removes these files too; policies show the sets they are in. */
  onModuleInit(): void {
    this.organizationBlobs.register(idPrefixCollector(PolicySetEntity, policySetBlobPrefix));
    this.memberships.register((policyIds) => this.repo.setIdsOfPolicies(policyIds));
  }
}
