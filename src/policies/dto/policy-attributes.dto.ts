import { Type } from 'class-transformer';
import {
  ArrayMaxSize,
  ArrayMinSize,
  IsArray,
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
import { AcceptsKindAliases, POLICY_KINDS, PolicyKind } from '../policy-kinds';

export const POLICY_NAME = /^[A-Za-z0-9_-]+$/;
const NAME_MESSAGE = 'is invalid: use letters, numbers, - and _';

/**
 * One entry of the real service's legacy `enforce` attribute (`[{path, mode}]`), which clients
 * older than its `enforcement-level` still send alone. `mode` is the enforcement level.
 */
export class LegacyEnforcement {
  @Omittable()
  @IsString()
  @MaxLength(256, { message: 'is too long (maximum is 256 characters)' })
  path?: string;

  @IsString()
  @IsNotEmpty({ message: "can't be blank" })
  mode: string;
}

const ENFORCE_ONE = 'must have exactly one entry: a policy has one enforcement level';

export class CreatePolicyAttributes {
  @IsString()
  @IsNotEmpty({ message: "can't be blank" })
  @MaxLength(128, { message: 'is too long (maximum is 128 characters)' })
  @Matches(POLICY_NAME, { message: NAME_MESSAGE })
  name: string;

  @Nullable()
  @IsString()
  @MaxLength(2000, { message: 'is too long (maximum is 2000 characters)' })
  description?: string | null;

  @Omittable()
  @AcceptsKindAliases()
  @IsIn(POLICY_KINDS, { message: `is not included in the list: ${POLICY_KINDS.join(', ')}` })
  kind?: PolicyKind;

  /** Required unless the legacy `enforce` gives the level instead. */
  @ValidateIf((o: CreatePolicyAttributes) => o.enforce === undefined || o['enforcement-level'] !== undefined)
  @IsString()
  @IsNotEmpty({ message: "can't be blank" })
  'enforcement-level'?: string;

  @Omittable()
  @IsArray()
  @ArrayMinSize(1, { message: ENFORCE_ONE })
  @ArrayMaxSize(1, { message: ENFORCE_ONE })
  @IsObject({ each: true, message: 'entries must be objects with path and mode' })
  @ValidateNested({ each: true })
  @Type(() => LegacyEnforcement)
  enforce?: LegacyEnforcement[];

  @Nullable()
  @IsString()
  @MaxLength(512, { message: 'is too long (maximum is 512 characters)' })
  query?: string | null;
}

export class UpdatePolicyAttributes {
  @Omittable()
  @IsString()
  @IsNotEmpty({ message: "can't be blank" })
  @MaxLength(128, { message: 'is too long (maximum is 128 characters)' })
  @Matches(POLICY_NAME, { message: NAME_MESSAGE })
  name?: string;

  @Nullable()
  @IsString()
  @MaxLength(2000, { message: 'is too long (maximum is 2000 characters)' })
  description?: string | null;

  /** Accepted only when it repeats the current kind: the kind of a policy cannot change. */
  @Omittable()
  @AcceptsKindAliases()
  @IsIn(POLICY_KINDS, { message: `is not included in the list: ${POLICY_KINDS.join(', ')}` })
  kind?: PolicyKind;

  @Omittable()
  @IsString()
  @IsNotEmpty({ message: "can't be blank" })
  'enforcement-level'?: string;

  /** The legacy form of `enforcement-level`, used only when that is absent. */
  @Omittable()
  @IsArray()
  @ArrayMinSize(1, { message: ENFORCE_ONE })
  @ArrayMaxSize(1, { message: ENFORCE_ONE })
  @IsObject({ each: true, message: 'entries must be objects with path and mode' })
  @ValidateNested({ each: true })
  @Type(() => LegacyEnforcement)
  enforce?: LegacyEnforcement[];

  @Nullable()
  @IsString()
  @MaxLength(512, { message: 'is too long (maximum is 512 characters)' })
  query?: string | null;
}

/**
 * The enforcement level a create or update asks for: `enforcement-level`, else the legacy
 * `enforce` entry's mode, else undefined. Also says which attribute it came from, for errors.
 */
export function requestedLevel(attrs: {
  'enforcement-level'?: string;
  enforce?: LegacyEnforcement[];
}): { level: string; attribute: 'enforcement-level' | 'enforce' } | undefined {
  if (attrs['enforcement-level'] !== undefined)
    return { level: attrs['enforcement-level'], attribute: 'enforcement-level' };
  const legacy = attrs.enforce?.[0];
  return legacy ? { level: legacy.mode, attribute: 'enforce' } : undefined;
}
