import { IsBoolean, IsString } from 'class-validator';
import { Omittable } from '../../common/jsonapi/presence';

/**
 * A variable's attributes as sent on create and update (workspace and set variables alike). Every
 * one may be left out here: the service asks for key and category on create (variable-rules.ts),
 * and an update changes only what was sent.
 */
export class VariableAttributes {
  @Omittable() @IsString({ message: 'must be a string' }) key?: string;
  @Omittable() @IsString({ message: 'must be a string' }) value?: string;
  @Omittable() @IsString({ message: 'must be a string' }) description?: string;
  @Omittable() @IsString({ message: 'must be a string' }) category?: string;
  @Omittable() @IsBoolean({ message: 'must be a boolean' }) hcl?: boolean;
  @Omittable() @IsBoolean({ message: 'must be a boolean' }) sensitive?: boolean;
}
