import { IsIn, IsNotEmpty, IsString, Matches, MaxLength } from 'class-validator';
import { Omittable, Nullable } from '../../common/jsonapi/presence';
import { POLICY_KINDS, PolicyKind } from '../policy-kinds';

export const POLICY_NAME = /^[A-Za-z0-9_-]+$/;
const NAME_MESSAGE = 'is invalid: use letters, numbers, - and _';

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
  @IsIn(POLICY_KINDS, { message: `is not included in the list: ${POLICY_KINDS.join(', ')}` })
  kind?: PolicyKind;

  @IsString()
  @IsNotEmpty({ message: "can't be blank" })
  'enforcement-level': string;

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
  @IsIn(POLICY_KINDS, { message: `is not included in the list: ${POLICY_KINDS.join(', ')}` })
  kind?: PolicyKind;

  @Omittable()
  @IsString()
  @IsNotEmpty({ message: "can't be blank" })
  'enforcement-level'?: string;

  @Nullable()
  @IsString()
  @MaxLength(512, { message: 'is too long (maximum is 512 characters)' })
  query?: string | null;
}
