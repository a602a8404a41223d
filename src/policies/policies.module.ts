import { Module, OnModuleInit } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { idPrefixCollector, OrganizationBlobsRegistry } from '../organizations/organization-blobs.registry';
import { OrganizationsModule } from '../organizations/organizations.module';
import { PolicySetPolicyEntity } from '../policy-sets/entities/policy-set-policy.entity';
import { PolicySetEntity } from '../policy-sets/entities/policy-set.entity';
import { PolicyEntity } from './entities/policy.entity';
import { policyBlobPrefix } from './policies.service';
import { PoliciesController } from './policies.controller';
import { PoliciesRepository } from './policies.repository';
import { PoliciesService } from './policies.service';

@Module({
  // The membership table is read here for policy-set-count; the policy-sets module owns it.
  imports: [
    TypeOrmModule.forFeature([PolicyEntity, PolicySetEntity, PolicySetPolicyEntity]),
    OrganizationsModule,
  ],
  controllers: [PoliciesController],
  providers: [PoliciesRepository, PoliciesService],
  exports: [PoliciesService],
})
export class PoliciesModule implements OnModuleInit {
  constructor(private readonly organizationBlobs: OrganizationBlobsRegistry) {}

  /** Deleting an organization removes these files too. */
  onModuleInit(): void {
    this.organizationBlobs.register(idPrefixCollector(PolicyEntity, policyBlobPrefix));
  }
}
