import { Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import { ToolVersionsService } from '../admin-catalogs/tool-versions.service';

/**
 * Decides whether a framework_b policy set may newly pin a `policy-tool-version`: `latest` or an
 * enabled entry of the policy-engine catalog. The set stores what this returns (the catalog's spelling).
 */
@Injectable()
export class PolicyToolVersionValidator {
  constructor(private readonly catalog: ToolVersionsService) {}

  /** The version as it should be stored; a 422 on `policy-tool-version` when it may not be pinned. */
  assertPinnable(version: string, manager?: EntityManager): Promise<string> {
    return this.catalog.assertPinnable('policy-engine-versions', version, 'policy-tool-version', manager);
  }
}
