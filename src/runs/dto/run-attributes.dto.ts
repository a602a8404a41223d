import { IsBoolean, IsOptional, IsString, MaxLength } from 'class-validator';

export class CreateRunAttributes {
  @IsOptional()
  @IsString()
  @MaxLength(2000, { message: 'is too long (maximum is 2000 characters)' })
  message?: string;

  @IsOptional()
  @IsBoolean()
  'is-destroy'?: boolean;

  @IsOptional()
  @IsBoolean()
  'plan-only'?: boolean;

  /** Defaults to the workspace's `auto-apply`. */
  @IsOptional()
  @IsBoolean()
  'auto-apply'?: boolean;
}

export class CreateConfigurationVersionAttributes {
  @IsOptional()
  @IsBoolean()
  'auto-queue-runs'?: boolean;

  @IsOptional()
  @IsBoolean()
  speculative?: boolean;
}
