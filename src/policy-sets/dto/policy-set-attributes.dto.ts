import { Type } from 'class-transformer';
import {
  IsBoolean,
  IsIn,
  IsNotEmpty,
  IsObject,
  IsString,
  Matches,
  MaxLength,
  ValidateIf,
  ValidateNested,
} from 'class-validator';
import { Omittable, Nullable } from '../../common/jsonapi/presence';
import { AcceptsKindAliases, POLICY_KINDS, PolicyKind } from '../../policies/policy-kinds';

export const POLICY_SET_NAME = /^[A-Za-z0-9_-]+$/;
const NAME_MESSAGE = 'is invalid: use letters, numbers, - and _';
const KIND_MESSAGE = `is not included in the list: ${POLICY_KINDS.join(', ')}`;
const given = (_: object, v: unknown) => v !== undefined && v !== null;

export class VcsRepoAttributes {
  @Nullable()
  @IsString({ message: 'must be a string' })
  @MaxLength(255, { message: 'is too long (maximum is 255 characters)' })
  branch?: string | null;

  /** Required whenever `vcs-repo` is given; checked with the other rules so its pointer is exact. */
  @Nullable()
  @IsString({ message: 'must be a string' })
  @MaxLength(255, { message: 'is too long (maximum is 255 characters)' })
  identifier?: string | null;

  @Nullable()
  @IsString({ message: 'must be a string' })
  @MaxLength(64, { message: 'is too long (maximum is 64 characters)' })
  'oauth-token-id'?: string | null;

  @Nullable()
  @IsString({ message: 'must be a string' })
  @MaxLength(64, { message: 'is too long (maximum is 64 characters)' })
  'vcs-app-installation-id'?: string | null;

  /** The name official-client style tooling sends for `vcs-app-installation-id`. */
  @Nullable()
  @IsString({ message: 'must be a string' })
  @MaxLength(64, { message: 'is too long (maximum is 64 characters)' })
  'github-app-installation-id'?: string | null;

  @Omittable()
  @IsBoolean({ message: 'must be a boolean' })
  'ingress-submodules'?: boolean;
}

/** Attributes shared by create and update; every one optional here. */
class PolicySetAttributes {
  @Nullable()
  @IsString({ message: 'must be a string' })
  @MaxLength(2000, { message: 'is too long (maximum is 2000 characters)' })
  description?: string | null;

  @Omittable()
  @IsBoolean({ message: 'must be a boolean' })
  global?: boolean;

  @Omittable()
  @AcceptsKindAliases()
  @IsIn(POLICY_KINDS, { message: KIND_MESSAGE })
  kind?: PolicyKind;

  @Omittable()
  @IsBoolean({ message: 'must be a boolean' })
  overridable?: boolean;

  @Omittable()
  @IsBoolean({ message: 'must be a boolean' })
  'agent-enabled'?: boolean;

  @Omittable()
  @IsString({ message: 'must be a string' })
  @MaxLength(64, { message: 'is too long (maximum is 64 characters)' })
  'policy-tool-version'?: string;

  @ValidateIf(given)
  @IsObject({ message: 'must be an object' })
  @ValidateNested()
  @Type(() => VcsRepoAttributes)
  'vcs-repo'?: VcsRepoAttributes | null;

  @Nullable()
  @IsString({ message: 'must be a string' })
  @MaxLength(255, { message: 'is too long (maximum is 255 characters)' })
  'policies-path'?: string | null;
}

export class CreatePolicySetAttributes extends PolicySetAttributes {
  @IsString({ message: 'must be a string' })
  @IsNotEmpty({ message: "can't be blank" })
  @MaxLength(128, { message: 'is too long (maximum is 128 characters)' })
  @Matches(POLICY_SET_NAME, { message: NAME_MESSAGE })
  name: string;
}

export class UpdatePolicySetAttributes extends PolicySetAttributes {
  @Omittable()
  @IsString({ message: 'must be a string' })
  @IsNotEmpty({ message: "can't be blank" })
  @MaxLength(128, { message: 'is too long (maximum is 128 characters)' })
  @Matches(POLICY_SET_NAME, { message: NAME_MESSAGE })
  name?: string;
}
