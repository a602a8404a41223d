import { IsBoolean, IsString } from 'class-validator';
import { Omittable } from '../../common/jsonapi/presence';

/** A variable set's attributes on create and update; the service asks for `name` on create. */
export class VariableSetAttributes {
  @Omittable() @IsString({ message: 'must be a string' }) name?: string;
  @Omittable() @IsString({ message: 'must be a string' }) description?: string;
  @Omittable() @IsBoolean({ message: 'must be a boolean' }) global?: boolean;
  @Omittable() @IsBoolean({ message: 'must be a boolean' }) priority?: boolean;
}
