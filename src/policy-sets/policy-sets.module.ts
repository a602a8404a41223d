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
import { WrappedKeyHolders } from '../secrets/wrapped-key-holders';
import { PolicySetParameterEntity } from './entities/policy-set-parameter.entity';
import { PolicySetParametersController } from './policy-set-parameters.controller';
import { PolicySetParametersRepository } from './policy-set-parameters.repository';
import { PolicySetParametersService } from './policy-set-parameters.service';
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
import { EnforcedSetsCache } from './enforced-sets.cache';
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
      PolicySetParameterEntity,
    ]),
    AdminCatalogsModule,
    OrganizationsModule,
    PoliciesModule,
    ProjectsModule,
    WorkspacesModule,
  ],
  controllers: [
    PolicySetsController,
    PolicySetRelationshipsController,
    PolicySetVersionsController,
    PolicySetParametersController,
  ],
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
    EnforcedSetsCache,
    PolicySetParametersRepository,
    PolicySetParametersService,
  ],
  exports: [PolicySetsService, PolicySetSnapshots, PolicySetParametersService],
})
export class PolicySetsModule implements OnModuleInit {
  constructor(
    private readonly organizationBlobs: OrganizationBlobsRegistry,
    private readonly memberships: PolicySetMemberships,
    private readonly repo: PolicySetsRepository,
    private readonly parameters: PolicySetParametersService,
    private readonly keyHolders: WrappedKeyHolders,
  ) {}

  /**
   * Deleting an organization removes these files too; policies show the sets they are in; a key
   * rotation re-wraps sensitive parameters.
   */
  onModuleInit(): void {
    this.keyHolders.register({
      name: 'policy set parameters',
      batch: (after, limit) => this.parameters.sealedValues(after, limit),
      replace: (id, from, to) => this.parameters.replaceSealedValue(id, from, to),
    });
    this.organizationBlobs.register(idPrefixCollector(PolicySetEntity, policySetBlobPrefix));
    this.memberships.register((policyIds) => this.repo.setIdsOfPolicies(policyIds));
  }
}
