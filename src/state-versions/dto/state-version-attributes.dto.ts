import { IsBoolean, IsInt, IsNotEmpty, IsString, Matches, Max, MaxLength, Min } from 'class-validator';
import { Omittable } from '../../common/jsonapi/presence';

export class CreateStateVersionAttributes {
  /** The serial inside the state; it must grow from the current version's (unless `force`). */
  @IsNotEmpty({ message: "can't be blank" })
  @IsInt({ message: 'must be an integer' })
  @Min(0, { message: 'must be greater than or equal to 0' })
  @Max(Number.MAX_SAFE_INTEGER, { message: `must be less than or equal to ${Number.MAX_SAFE_INTEGER}` })
  serial: number;

  /** Lower-case or upper-case hex MD5 of the raw (decoded) state. */
  @IsNotEmpty({ message: "can't be blank" })
  @IsString()
  @Matches(/^[0-9a-fA-F]{32}$/, { message: 'must be the hex MD5 hash of the state (32 hexadecimal digits)' })
  md5: string;

  @Omittable()
  @IsString()
  @MaxLength(128, { message: 'is too long (maximum is 128 characters)' })
  lineage?: string;

  /** Base64 of the raw state; without it the version stays pending until it is uploaded. */
  @Omittable()
  @IsString()
  state?: string;

  /** Base64 of the `terraform show -json` form. */
  @Omittable()
  @IsString()
  'json-state'?: string;

  /** Base64 of the outputs in `terraform show -json` form: checked, but outputs are read from the state. */
  @Omittable()
  @IsString()
  'json-state-outputs'?: string;

  /** Skips the lineage and serial checks (`terraform state push -force`). */
  @Omittable()
  @IsBoolean()
  force?: boolean;
}

/** A rollback names the version to copy in `relationships.rollback-state-version`; no attributes. */
export class RollbackStateVersionAttributes {}
