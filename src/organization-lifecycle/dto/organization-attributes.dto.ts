import { IsSlugName } from '../../common/jsonapi/name-rule';
import { IsEmail, IsIn, IsNotEmpty, IsString, MaxLength } from 'class-validator';
import { Omittable } from '../../common/jsonapi/presence';

export class CreateOrganizationAttributes {
  @IsSlugName(64)
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
  @IsSlugName(64)
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
