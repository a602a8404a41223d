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
}
