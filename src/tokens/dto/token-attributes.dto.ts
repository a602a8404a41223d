import { IsDateString, IsString, Matches, MaxLength } from 'class-validator';
import { Nullable } from '../../common/jsonapi/presence';

/** A calendar date and time with an explicit zone; week and ordinal dates are not timestamps clients send. */
const TIMESTAMP = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:\d{2})$/;

export class CreateTokenAttributes {
  @Nullable()
  @IsString()
  @MaxLength(255, { message: 'is too long (maximum is 255 characters)' })
  description?: string;

  @Nullable()
  @IsString()
  @Matches(TIMESTAMP, { message: 'must be an ISO 8601 timestamp' })
  @IsDateString({ strict: true }, { message: 'must be an ISO 8601 timestamp' })
  'expired-at'?: string;
}
