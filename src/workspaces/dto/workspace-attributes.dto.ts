import { IsNotEmpty, IsOptional, IsString, Matches, MaxLength, ValidateIf } from 'class-validator';

const NAME = /^[A-Za-z0-9_-]+$/;
const ENGINE_VERSION = /^(latest|\d+\.\d+\.\d+(-[0-9A-Za-z.-]+)?)$/;

export class CreateWorkspaceAttributes {
  @IsString()
  @IsNotEmpty({ message: "can't be blank" })
  @MaxLength(90, { message: 'is too long (maximum is 90 characters)' })
  @Matches(NAME, { message: 'is invalid: use letters, numbers, - and _' })
  name: string;

  @IsOptional()
  @IsString()
  @MaxLength(2000, { message: 'is too long (maximum is 2000 characters)' })
  description?: string | null;

  @IsOptional()
  @IsString()
  @Matches(ENGINE_VERSION, { message: 'is invalid: use latest or N.N.N' })
  'engine-version'?: string;
}

export class UpdateWorkspaceAttributes {
  @ValidateIf((_, v) => v !== undefined)
  @IsString()
  @IsNotEmpty({ message: "can't be blank" })
  @MaxLength(90, { message: 'is too long (maximum is 90 characters)' })
  @Matches(NAME, { message: 'is invalid: use letters, numbers, - and _' })
  name?: string;

  @IsOptional()
  @IsString()
  @MaxLength(2000, { message: 'is too long (maximum is 2000 characters)' })
  description?: string | null;

  @ValidateIf((_, v) => v !== undefined)
  @IsString()
  @Matches(ENGINE_VERSION, { message: 'is invalid: use latest or N.N.N' })
  'engine-version'?: string;
}
