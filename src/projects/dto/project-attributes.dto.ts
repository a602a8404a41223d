import { IsNotEmpty, IsString, Matches, MaxLength, MinLength } from 'class-validator';
import { Omittable, Nullable } from '../../common/jsonapi/presence';

const NAME = /^[A-Za-z0-9 _-]+$/;

export class CreateProjectAttributes {
  @IsString()
  @IsNotEmpty({ message: "can't be blank" })
  @MinLength(3, { message: 'is too short (minimum is 3 characters)' })
  @MaxLength(40, { message: 'is too long (maximum is 40 characters)' })
  @Matches(NAME, { message: 'is invalid: use letters, numbers, spaces, - and _' })
  name: string;

  @Nullable()
  @IsString()
  @MaxLength(2000, { message: 'is too long (maximum is 2000 characters)' })
  description?: string | null;
}

export class UpdateProjectAttributes {
  @Omittable()
  @IsString()
  @IsNotEmpty({ message: "can't be blank" })
  @MinLength(3, { message: 'is too short (minimum is 3 characters)' })
  @MaxLength(40, { message: 'is too long (maximum is 40 characters)' })
  @Matches(NAME, { message: 'is invalid: use letters, numbers, spaces, - and _' })
  name?: string;

  @Nullable()
  @IsString()
  @MaxLength(2000, { message: 'is too long (maximum is 2000 characters)' })
  description?: string | null;
}
