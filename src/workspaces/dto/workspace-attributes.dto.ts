import { IsSlugName } from '../../common/jsonapi/name-rule';
import { IsBoolean, IsIn, IsString, Matches, MaxLength } from 'class-validator';
import { Omittable, Nullable } from '../../common/jsonapi/presence';
import { invalidAttribute } from '../../common/errors/domain-error';
import { EXECUTION_MODES, ExecutionMode } from '../entities/workspace.entity';

const ENGINE_VERSION = /^(latest|\d+\.\d+\.\d+(-[0-9A-Za-z.-]+)?)$/;

/** Where runs of the workspace execute, and whether they apply on their own. */
export class ExecutionSettingsAttributes {
  @Omittable()
  @IsIn(EXECUTION_MODES, { message: `must be one of ${EXECUTION_MODES.join(', ')}` })
  'execution-mode'?: ExecutionMode;

  /** go-tfe sends the pool as this attribute (null clears it); the `agent-pool` relationship says the same. */
  @Nullable()
  @IsString()
  'agent-pool-id'?: string | null;

  @Omittable()
  @IsBoolean()
  'auto-apply'?: boolean;

  @Omittable()
  @IsBoolean()
  'auto-apply-run-trigger'?: boolean;
}

export class CreateWorkspaceAttributes extends ExecutionSettingsAttributes {
  @IsSlugName(90)
  name: string;

  @Nullable()
  @IsString()
  @MaxLength(2000, { message: 'is too long (maximum is 2000 characters)' })
  description?: string | null;

  @Omittable()
  @IsString()
  @Matches(ENGINE_VERSION, { message: 'is invalid: use latest or N.N.N' })
  'engine-version'?: string;

  /** The real service's name of `engine-version`, under which its clients send it. */
  @Omittable()
  @IsString()
  @Matches(ENGINE_VERSION, { message: 'is invalid: use latest or N.N.N' })
  'terraform-version'?: string;
}

export class UpdateWorkspaceAttributes extends ExecutionSettingsAttributes {
  @Omittable()
  @IsSlugName(90)
  name?: string;

  @Nullable()
  @IsString()
  @MaxLength(2000, { message: 'is too long (maximum is 2000 characters)' })
  description?: string | null;

  @Omittable()
  @IsString()
  @Matches(ENGINE_VERSION, { message: 'is invalid: use latest or N.N.N' })
  'engine-version'?: string;

  /** The real service's name of `engine-version`, under which its clients send it. */
  @Omittable()
  @IsString()
  @Matches(ENGINE_VERSION, { message: 'is invalid: use latest or N.N.N' })
  'terraform-version'?: string;
}

export type VersionAttribute = 'engine-version' | 'terraform-version';

/**
 * The engine version a body pins and the attribute it came in: `engine-version`, or the real
 * service's `terraform-version`. Both at once must agree (422 otherwise); neither → undefined.
 */
export function requestedEngineVersion(attrs: {
  'engine-version'?: string;
  'terraform-version'?: string;
}): { version: string; attribute: VersionAttribute } | undefined {
  const contract = attrs['engine-version'];
  const alias = attrs['terraform-version'];
  if (contract !== undefined && alias !== undefined && contract.toLowerCase() !== alias.toLowerCase()) {
    throw invalidAttribute('terraform-version', 'must equal engine-version when both are given');
  }
  if (contract !== undefined) return { version: contract, attribute: 'engine-version' };
  if (alias !== undefined) return { version: alias, attribute: 'terraform-version' };
  return undefined;
}
