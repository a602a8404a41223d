import { Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import { invalidAttribute } from '../common/errors/domain-error';
import { TOOL_VERSION } from './policy-set-rules';

/**
 * Decides whether a framework_b policy set may newly pin a `policy-tool-version`. The catalog of
 * policy-engine versions replaces the default binding; the set stores what this returns.
 */
export abstract class PolicyToolVersionValidator {
  /** The version as it should be stored; a 422 on `policy-tool-version` when it may not be pinned. */
  abstract assertPinnable(version: string, manager?: EntityManager): Promise<string>;
}

/** Without a catalog: `latest` and any `N.N.N` (optionally `-suffix`) version are pinnable. */
@Injectable()
export class ShapeOnlyPolicyToolVersionValidator extends PolicyToolVersionValidator {
  async assertPinnable(version: string): Promise<string> {
    if (!TOOL_VERSION.test(version)) {
      throw invalidAttribute('policy-tool-version', 'is invalid: use latest or N.N.N');
    }
    return version;
  }
}
