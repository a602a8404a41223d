import { ValidateBy } from 'class-validator';

/**
 * 1–128 letters, digits, spaces and `. = + - @ : _`, not starting or ending with a space (MySQL
 * compares strings ignoring trailing spaces, so `env ` and `env` could not both be unique).
 */
export const RESERVED_KEY_PATTERN =
  /^[A-Za-z0-9.=+\-@:_](?:[A-Za-z0-9 .=+\-@:_]{0,126}[A-Za-z0-9.=+\-@:_])?$/;

const given = (value: unknown) => value !== undefined && value !== null && value !== '';

/** Present and not empty: "can't be blank" otherwise. */
function Required(): PropertyDecorator {
  return ValidateBy({
    name: 'required',
    validator: { validate: given, defaultMessage: () => "can't be blank" },
  });
}

/** A rule checked only on values that were given, so a missing value reads as blank, not also as invalid. */
function WhenGiven(name: string, check: (value: unknown) => boolean, message: string): PropertyDecorator {
  return ValidateBy({
    name,
    validator: { validate: (value) => !given(value) || check(value), defaultMessage: () => message },
  });
}

/** Both attributes are required on create and on update. */
export class ReservedTagKeyAttributes {
  @Required()
  @WhenGiven('reservedKey', (v) => typeof v === 'string' && RESERVED_KEY_PATTERN.test(v), 'is invalid')
  key: string;

  @Required()
  @WhenGiven('boolean', (v) => typeof v === 'boolean', 'must be a boolean')
  'disable-overrides': boolean;
}
