import { IsEmail, IsIn, IsNotEmpty, IsString, Matches, MaxLength } from 'class-validator';
import { Omittable } from '../../common/jsonapi/presence';

const NAME = /^[A-Za-z0-9_-]+$/;

export class CreateOrganizationAttributes {
  @IsString()
  @IsNotEmpty({ message: "can't be blank" })
  @MaxLength(64, { message: 'is too long (maximum is 64 characters)' })
  @Matches(NAME, { message: 'is invalid: use letters, numbers, - and _' })
  name: string;

  @IsString()
  @IsNotEmpty({ message: "can't be blank" })
  @IsEmail({}, { message: 'is invalid' })
  @MaxLength(255, { message: 'is too long (maximum is 255 characters)' })
  email: string;

  @Omittable()
  @IsIn(['free', 'enterprise'], { message: 'is not included in the list' })
  edition?: 'free' | 'enterprise';
}

export class UpdateOrganizationAttributes {
  @Omittable()
  @IsString()
  @IsNotEmpty({ message: "can't be blank" })
  @MaxLength(64, { message: 'is too long (maximum is 64 characters)' })
  @Matches(NAME, { message: 'is invalid: use letters, numbers, - and _' })
  name?: string;

  @Omittable()
  @IsString()
  @IsEmail({}, { message: 'is invalid' })
  @MaxLength(255, { message: 'is too long (maximum is 255 characters)' })
  email?: string;

  @Omittable()
  @IsIn(['free', 'enterprise'], { message: 'is not included in the list' })
  edition?: 'free' | 'enterprise';
}
