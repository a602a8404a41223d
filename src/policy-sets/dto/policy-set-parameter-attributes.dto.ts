import { IsBoolean, IsString } from 'class-validator';
import { Omittable } from '../../common/jsonapi/presence';

/** A parameter's attributes as sent on create and update; the rules ask for key and category on create. */
export class PolicySetParameterAttributes {
  @Omittable() @IsString({ message: 'must be a string' }) key?: string;
  @Omittable() @IsString({ message: 'must be a string' }) value?: string;
  @Omittable() @IsString({ message: 'must be a string' }) category?: string;
  @Omittable() @IsBoolean({ message: 'must be a boolean' }) sensitive?: boolean;
}
