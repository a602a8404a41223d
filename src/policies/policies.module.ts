import { Module, OnModuleInit } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { idPrefixCollector, OrganizationBlobsRegistry } from '../organizations/organization-blobs.registry';
import { OrganizationsModule } from '../organizations/organizations.module';
import { PolicyEntity } from './entities/policy.entity';
import { policyBlobPrefix } from './policies.service';
import { PoliciesController } from './policies.controller';
import { PoliciesRepository } from './policies.repository';
import { PoliciesService } from './policies.service';
import { PolicySetMemberships } from './policy-set-memberships';

@Module({
  imports: [TypeOrmModule.forFeature([PolicyEntity]), OrganizationsModule],
  controllers: [PoliciesController],
  providers: [PoliciesRepository, PoliciesService, PolicySetMemberships],
  exports: [PoliciesService, PolicySetMemberships],
})
export class PoliciesModule implements OnModuleInit {
  constructor(private readonly organizationBlobs: OrganizationBlobsRegistry) {}

  /** Deleting an organization removes these files too. */
  onModuleInit(): void {
    this.organizationBlobs.register(idPrefixCollector(PolicyEntity, policyBlobPrefix));
  }
}
