import { requiredString, Rule } from '../validation';

/** What fits the ascii_armor column on every dialect (TEXT holds 64 KiB on MySQL). */
export const MAX_ARMOR_CHARS = 60000;

export class CreateGpgKeyAttributes {
  @Rule(requiredString({ max: 64 }))
  namespace: string;

  @Rule(requiredString({ max: MAX_ARMOR_CHARS }))
  'ascii-armor': string;
}

export class UpdateGpgKeyAttributes {
  @Rule(requiredString({ max: 64 }))
  namespace: string;
}
