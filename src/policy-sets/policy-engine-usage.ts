import { Injectable, OnModuleInit } from '@nestjs/common';
import { CatalogUsageRegistry } from '../admin-catalogs/catalog-usage.registry';
import { PolicySetsRepository } from './policy-sets.repository';

/** Tells the policy-engine catalog which framework_b sets pin its versions (usage, delete guard). */
@Injectable()
export class PolicyEngineUsage implements OnModuleInit {
  constructor(
    private readonly registry: CatalogUsageRegistry,
    private readonly repo: PolicySetsRepository,
  ) {}

  onModuleInit(): void {
    this.registry.register(
      'policy-engine-versions',
      (versions, manager) => this.repo.countByPolicyToolVersion(versions, manager),
      {
        one: 'policy set',
        other: 'policy sets',
      },
    );
  }
}
