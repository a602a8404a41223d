import { IsNotEmpty, IsString, Matches, MaxLength } from 'class-validator';
import { Omittable, Nullable } from '../../common/jsonapi/presence';

const NAME = /^[A-Za-z0-9_-]+$/;
const ENGINE_VERSION = /^(latest|\d+\.\d+\.\d+(-[0-9A-Za-z.-]+)?)$/;

export class CreateWorkspaceAttributes {
  @IsString()
  @IsNotEmpty({ message: "can't be blank" })
  @MaxLength(90, { message: 'is too long (maximum is 90 characters)' })
  @Matches(NAME, { message: 'is invalid: use letters, numbers, - and _' })
  name: string;

  @Nullable()
  @IsString()
  @MaxLength(2000, { message: 'is too long (maximum is 2000 characters)' })
  description?: string | null;

  @Omittable()
  @IsString()
  @Matches(ENGINE_VERSION, { message: 'is invalid: use latest or N.N.N' })
  'engine-version'?: string;
}

export class UpdateWorkspaceAttributes {
  @Omittable()
  @IsString()
  @IsNotEmpty({ message: "can't be blank" })
  @MaxLength(90, { message: 'is too long (maximum is 90 characters)' })
  @Matches(NAME, { message: 'is invalid: use letters, numbers, - and _' })
  name?: string;

  @Nullable()
  @IsString()
  @MaxLength(2000, { message: 'is too long (maximum is 2000 characters)' })
  description?: string | null;

  @Omittable()
  @IsString()
  @Matches(ENGINE_VERSION, { message: 'is invalid: use latest or N.N.N' })
  'engine-version'?: string;
}
