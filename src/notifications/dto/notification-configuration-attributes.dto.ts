import {
  ArrayMaxSize,
  IsArray,
  IsBoolean,
  IsEmail,
  IsIn,
  IsNotEmpty,
  IsString,
  MaxLength,
} from 'class-validator';
import { Nullable, Omittable } from '../../common/jsonapi/presence';
import { DESTINATION_TYPES, DestinationType } from '../notification-rules';

const TOO_LONG = (n: number) => ({ message: `is too long (maximum is ${n} characters)` });

/** Attributes shared by create and update; each optional here. */
class NotificationConfigurationAttributes {
  @Omittable()
  @IsBoolean({ message: 'must be a boolean' })
  enabled?: boolean;

  @Nullable()
  @IsString({ message: 'must be a string' })
  @MaxLength(2048, TOO_LONG(2048))
  url?: string | null;

  /** Write-only: the HMAC key of generic deliveries. Null or empty clears it. */
  @Nullable()
  @IsString({ message: 'must be a string' })
  @MaxLength(1024, TOO_LONG(1024))
  token?: string | null;

  @Omittable()
  @IsArray({ message: 'must be an array' })
  @ArrayMaxSize(50, { message: 'may have at most 50 entries' })
  @IsString({ each: true, message: 'must be an array of strings' })
  triggers?: string[];

  @Omittable()
  @IsArray({ message: 'must be an array' })
  @ArrayMaxSize(100, { message: 'may have at most 100 entries' })
  @IsEmail({}, { each: true, message: 'must be an array of email addresses' })
  'email-addresses'?: string[];
}

export class CreateNotificationConfigurationAttributes extends NotificationConfigurationAttributes {
  @IsString({ message: 'must be a string' })
  @IsNotEmpty({ message: "can't be blank" })
  @MaxLength(255, TOO_LONG(255))
  name: string;

  @IsIn(DESTINATION_TYPES, { message: `is not included in the list: ${DESTINATION_TYPES.join(', ')}` })
  'destination-type': DestinationType;
}

export class UpdateNotificationConfigurationAttributes extends NotificationConfigurationAttributes {
  @Omittable()
  @IsString({ message: 'must be a string' })
  @IsNotEmpty({ message: "can't be blank" })
  @MaxLength(255, TOO_LONG(255))
  name?: string;

  @Omittable()
  @IsIn(DESTINATION_TYPES, { message: `is not included in the list: ${DESTINATION_TYPES.join(', ')}` })
  'destination-type'?: DestinationType;
}
