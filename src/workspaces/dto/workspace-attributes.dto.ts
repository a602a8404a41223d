import {
  IsBoolean,
  IsIn,
  IsNotEmpty,
  IsOptional,
  IsString,
  Matches,
  MaxLength,
  ValidateIf,
} from 'class-validator';
import { EXECUTION_MODES, ExecutionMode } from '../entities/workspace.entity';

const NAME = /^[A-Za-z0-9_-]+$/;
const ENGINE_VERSION = /^(latest|\d+\.\d+\.\d+(-[0-9A-Za-z.-]+)?)$/;

/** Where runs of the workspace execute, and whether they apply on their own. */
export class ExecutionSettingsAttributes {
  @ValidateIf((_, v) => v !== undefined)
  @IsIn(EXECUTION_MODES, { message: `must be one of ${EXECUTION_MODES.join(', ')}` })
  'execution-mode'?: ExecutionMode;

  /** go-tfe sends the pool as this attribute; the `agent-pool` relationship says the same. */
  @IsOptional()
  @IsString()
  'agent-pool-id'?: string | null;

  @ValidateIf((_, v) => v !== undefined)
  @IsBoolean()
  'auto-apply'?: boolean;

  @ValidateIf((_, v) => v !== undefined)
  @IsBoolean()
  'auto-apply-run-trigger'?: boolean;
}

export class CreateWorkspaceAttributes extends ExecutionSettingsAttributes {
  @IsString()
  @IsNotEmpty({ message: "can't be blank" })
  @MaxLength(90, { message: 'is too long (maximum is 90 characters)' })
  @Matches(NAME, { message: 'is invalid: use letters, numbers, - and _' })
  name: string;

  @IsOptional()
  @IsString()
  @MaxLength(2000, { message: 'is too long (maximum is 2000 characters)' })
  description?: string | null;

  @IsOptional()
  @IsString()
  @Matches(ENGINE_VERSION, { message: 'is invalid: use latest or N.N.N' })
  'engine-version'?: string;
}

export class UpdateWorkspaceAttributes extends ExecutionSettingsAttributes {
  @ValidateIf((_, v) => v !== undefined)
  @IsString()
  @IsNotEmpty({ message: "can't be blank" })
  @MaxLength(90, { message: 'is too long (maximum is 90 characters)' })
  @Matches(NAME, { message: 'is invalid: use letters, numbers, - and _' })
  name?: string;

  @IsOptional()
  @IsString()
  @MaxLength(2000, { message: 'is too long (maximum is 2000 characters)' })
  description?: string | null;

  @ValidateIf((_, v) => v !== undefined)
  @IsString()
  @Matches(ENGINE_VERSION, { message: 'is invalid: use latest or N.N.N' })
  'engine-version'?: string;
}
