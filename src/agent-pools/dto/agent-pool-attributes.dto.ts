import { IsBoolean, IsNotEmpty, IsOptional, IsString, Matches, MaxLength, ValidateIf } from 'class-validator';

const NAME = /^[A-Za-z0-9_-]+$/;

export class CreateAgentPoolAttributes {
  @IsString()
  @IsNotEmpty({ message: "can't be blank" })
  @MaxLength(90, { message: 'is too long (maximum is 90 characters)' })
  @Matches(NAME, { message: 'is invalid: use letters, numbers, - and _' })
  name: string;

  @IsOptional()
  @IsBoolean()
  'organization-scoped'?: boolean;
}

export class UpdateAgentPoolAttributes {
  @ValidateIf((_, v) => v !== undefined)
  @IsString()
  @IsNotEmpty({ message: "can't be blank" })
  @MaxLength(90, { message: 'is too long (maximum is 90 characters)' })
  @Matches(NAME, { message: 'is invalid: use letters, numbers, - and _' })
  name?: string;

  @ValidateIf((_, v) => v !== undefined)
  @IsBoolean()
  'organization-scoped'?: boolean;
}
