// eslint-disable-next-line no-restricted-imports -- Nullable is the one place that lets null through on purpose
import { IsOptional } from 'class-validator';
import { ValidateIf } from 'class-validator';

/**
 * The attribute may be left out; once sent it must pass its rules, so `null` fails like any other
 * value of the wrong type instead of reaching a NOT NULL column. The default for every optional
 * attribute (class-validator's IsOptional lets `null` through, so lint keeps it out of DTOs).
 */
export function Omittable(): PropertyDecorator {
  return ValidateIf((_object, value) => value !== undefined);
}

/** The attribute may be left out or sent as `null`, which clears it: only where the wire shape has a null. */
export function Nullable(): PropertyDecorator {
  return IsOptional();
}
