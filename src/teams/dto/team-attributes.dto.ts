import { Type } from 'class-transformer';
import {
  IsBoolean,
  IsIn,
  IsNotEmpty,
  IsObject,
  IsString,
  Matches,
  MaxLength,
  ValidateNested,
} from 'class-validator';
import { Omittable } from '../../common/jsonapi/presence';

export class OrganizationAccessAttributes {
  @Omittable() @IsBoolean() 'manage-policies'?: boolean;
  @Omittable() @IsBoolean() 'manage-workspaces'?: boolean;
  @Omittable() @IsBoolean() 'manage-projects'?: boolean;
  @Omittable() @IsBoolean() 'manage-providers'?: boolean;
  @Omittable() @IsBoolean() 'manage-policy-overrides'?: boolean;
  @Omittable() @IsBoolean() 'manage-variable-sets'?: boolean;
  @Omittable() @IsBoolean() 'read-workspaces'?: boolean;
  @Omittable() @IsBoolean() 'read-projects'?: boolean;
}

const NAME = /^[A-Za-z0-9 _.-]+$/;

export class CreateTeamAttributes {
  @IsString()
  @IsNotEmpty({ message: "can't be blank" })
  @MaxLength(128, { message: 'is too long (maximum is 128 characters)' })
  @Matches(NAME, { message: 'is invalid: use letters, numbers, spaces, ., - and _' })
  name: string;

  @Omittable()
  @IsIn(['secret', 'organization'], { message: 'is not included in the list' })
  visibility?: 'secret' | 'organization';

  @Omittable()
  @IsObject({ message: 'must be an object' })
  @ValidateNested()
  @Type(() => OrganizationAccessAttributes)
  'organization-access'?: OrganizationAccessAttributes;
}

export class UpdateTeamAttributes {
  @Omittable()
  @IsString()
  @IsNotEmpty({ message: "can't be blank" })
  @MaxLength(128, { message: 'is too long (maximum is 128 characters)' })
  @Matches(NAME, { message: 'is invalid: use letters, numbers, spaces, ., - and _' })
  name?: string;

  @Omittable()
  @IsIn(['secret', 'organization'], { message: 'is not included in the list' })
  visibility?: 'secret' | 'organization';

  @Omittable()
  @IsObject({ message: 'must be an object' })
  @ValidateNested()
  @Type(() => OrganizationAccessAttributes)
  'organization-access'?: OrganizationAccessAttributes;
}
