import { IsBoolean, IsNotEmpty, IsString, Matches, MaxLength } from 'class-validator';
import { Omittable } from '../../common/jsonapi/presence';

const NAME = /^[A-Za-z0-9_-]+$/;

export class CreateAgentPoolAttributes {
  @IsString()
  @IsNotEmpty({ message: "can't be blank" })
  @MaxLength(90, { message: 'is too long (maximum is 90 characters)' })
  @Matches(NAME, { message: 'is invalid: use letters, numbers, - and _' })
  name: string;

  @Omittable()
  @IsBoolean()
  'organization-scoped'?: boolean;
}

export class UpdateAgentPoolAttributes {
  @Omittable()
  @IsString()
  @IsNotEmpty({ message: "can't be blank" })
  @MaxLength(90, { message: 'is too long (maximum is 90 characters)' })
  @Matches(NAME, { message: 'is invalid: use letters, numbers, - and _' })
  name?: string;

  @Omittable()
  @IsBoolean()
  'organization-scoped'?: boolean;
}
