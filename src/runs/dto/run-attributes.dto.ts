import { IsArray, IsBoolean, IsString, MaxLength } from 'class-validator';
import { Omittable } from '../../common/jsonapi/presence';

export class CreateRunAttributes {
  @Omittable()
  @IsString()
  @MaxLength(2000, { message: 'is too long (maximum is 2000 characters)' })
  message?: string;

  @Omittable()
  @IsBoolean()
  'is-destroy'?: boolean;

  @Omittable()
  @IsBoolean()
  'plan-only'?: boolean;

  /** Defaults to the workspace's `auto-apply`. */
  @Omittable()
  @IsBoolean()
  'auto-apply'?: boolean;

  @Omittable()
  @IsBoolean()
  refresh?: boolean;

  @Omittable()
  @IsBoolean()
  'refresh-only'?: boolean;

  /** Resource addresses; each is checked by the service (run-options.ts). */
  @Omittable()
  @IsArray({ message: 'must be an array' })
  'target-addrs'?: unknown[];

  @Omittable()
  @IsArray({ message: 'must be an array' })
  'replace-addrs'?: unknown[];

  @Omittable()
  @IsBoolean()
  'allow-empty-apply'?: boolean;

  @Omittable()
  @IsBoolean()
  'allow-config-generation'?: boolean;

  @Omittable()
  @IsBoolean()
  'save-plan'?: boolean;

  /** Plan-only runs: the tool version to plan with. */
  @Omittable()
  @IsString()
  @MaxLength(64, { message: 'is too long (maximum is 64 characters)' })
  'terraform-version'?: string;

  /** `[{key, value}]`, values as HCL literal expressions; checked by the variables module. */
  @Omittable()
  @IsArray({ message: 'must be an array' })
  variables?: unknown[];
}

export class CreateConfigurationVersionAttributes {
  @Omittable()
  @IsBoolean()
  'auto-queue-runs'?: boolean;

  @Omittable()
  @IsBoolean()
  speculative?: boolean;

  @Omittable()
  @IsBoolean()
  provisional?: boolean;
}
