import { IsNotEmpty, IsString, MaxLength } from 'class-validator';
import { CreateTokenAttributes } from './token-attributes.dto';

/** A login: the credentials, and the description and expiry of the token it issues. */
export class LoginAttributes extends CreateTokenAttributes {
  @IsString()
  @IsNotEmpty({ message: "can't be blank" })
  @MaxLength(64, { message: 'is too long (maximum is 64 characters)' })
  username: string;

  @IsString()
  @IsNotEmpty({ message: "can't be blank" })
  @MaxLength(128, { message: 'is too long (maximum is 128 characters)' })
  password: string;
}
