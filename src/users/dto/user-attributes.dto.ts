import { IsBoolean, IsEmail, IsNotEmpty, IsString, Matches, MaxLength, MinLength } from 'class-validator';
import { Omittable } from '../../common/jsonapi/presence';

/** What a username may hold; 64 characters at most. */
export const USERNAME_PATTERN = /^[A-Za-z0-9_.-]+$/;

export class CreateUserAttributes {
  @IsString()
  @IsNotEmpty({ message: "can't be blank" })
  @MaxLength(64, { message: 'is too long (maximum is 64 characters)' })
  @Matches(USERNAME_PATTERN, { message: 'is invalid: use letters, numbers, ., - and _' })
  username: string;

  @IsString()
  @IsEmail({}, { message: 'is invalid' })
  @MaxLength(255, { message: 'is too long (maximum is 255 characters)' })
  email: string;

  @IsString()
  @MinLength(10, { message: 'is too short (minimum is 10 characters)' })
  @MaxLength(128, { message: 'is too long (maximum is 128 characters)' })
  password: string;

  @Omittable()
  @IsBoolean()
  'is-site-admin'?: boolean;
}
