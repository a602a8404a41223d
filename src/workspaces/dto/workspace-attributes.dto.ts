import { IsSlugName } from '../../common/jsonapi/name-rule';
import { IsBoolean, IsIn, IsString, Matches, MaxLength } from 'class-validator';
import { Omittable, Nullable } from '../../common/jsonapi/presence';
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
}
