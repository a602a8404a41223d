import { IsDateString, IsOptional, IsString, MaxLength } from 'class-validator';

export class CreateTokenAttributes {
  @IsOptional()
  @IsString()
  @MaxLength(255, { message: 'is too long (maximum is 255 characters)' })
  description?: string;

  @IsOptional()
  @IsDateString({ strict: true }, { message: 'must be an ISO 8601 timestamp' })
  'expired-at'?: string;
}
