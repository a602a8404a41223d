import { Type } from 'class-transformer';
import {
  IsBoolean,
  IsIn,
  IsNotEmpty,
  IsObject,
  IsOptional,
  IsString,
  Matches,
  MaxLength,
  ValidateIf,
  ValidateNested,
} from 'class-validator';

export class OrganizationAccessAttributes {
  @IsOptional() @IsBoolean() 'manage-policies'?: boolean;
  @IsOptional() @IsBoolean() 'manage-workspaces'?: boolean;
  @IsOptional() @IsBoolean() 'manage-projects'?: boolean;
  @IsOptional() @IsBoolean() 'manage-providers'?: boolean;
  @IsOptional() @IsBoolean() 'read-workspaces'?: boolean;
  @IsOptional() @IsBoolean() 'read-projects'?: boolean;
}

const NAME = /^[A-Za-z0-9 _.-]+$/;

export class CreateTeamAttributes {
  @IsString()
  @IsNotEmpty({ message: "can't be blank" })
  @MaxLength(128, { message: 'is too long (maximum is 128 characters)' })
  @Matches(NAME, { message: 'is invalid: use letters, numbers, spaces, ., - and _' })
  name: string;

  @IsOptional()
  @IsIn(['secret', 'organization'], { message: 'is not included in the list' })
  visibility?: 'secret' | 'organization';

  @IsOptional()
  @IsObject({ message: 'must be an object' })
  @ValidateNested()
  @Type(() => OrganizationAccessAttributes)
  'organization-access'?: OrganizationAccessAttributes;
}

export class UpdateTeamAttributes {
  @ValidateIf((_, v) => v !== undefined)
  @IsString()
  @IsNotEmpty({ message: "can't be blank" })
  @MaxLength(128, { message: 'is too long (maximum is 128 characters)' })
  @Matches(NAME, { message: 'is invalid: use letters, numbers, spaces, ., - and _' })
  name?: string;

  @IsOptional()
  @IsIn(['secret', 'organization'], { message: 'is not included in the list' })
  visibility?: 'secret' | 'organization';

  @IsOptional()
  @IsObject({ message: 'must be an object' })
  @ValidateNested()
  @Type(() => OrganizationAccessAttributes)
  'organization-access'?: OrganizationAccessAttributes;
}
