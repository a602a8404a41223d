import { IsBoolean, IsIn } from 'class-validator';
import { Nullable, Omittable } from '../../common/jsonapi/presence';
import { REGISTRY_NAMES, RegistryName } from '../entities/registry-provider.entity';
import { isProviderVersion } from '../versions/provider-version-attributes.dto';
import { REGISTRY_NAME_MESSAGE, REGISTRY_NAME_PATTERN, requiredString, Rule } from '../validation';

/** Module names: letters, numbers, `-` and `_`, at most 64 characters (the reference's rule). */
const MODULE_NAME_RULE = {
  max: 64,
  pattern: REGISTRY_NAME_PATTERN,
  patternMessage: REGISTRY_NAME_MESSAGE,
};

/**
 * A module's provider is the system it targets (`aws`, `azurerm`): lower-case letters and numbers,
 * at most 64, as the module registry protocol's addresses (`namespace/name/provider`) allow.
 */
const MODULE_PROVIDER_PATTERN = /^[a-z0-9]+$/;
const MODULE_PROVIDER_MESSAGE = 'is invalid: use lower-case letters and numbers';

/** A namespace when sent: the name rule; left out, nothing to check. */
const namespaceCheck = (() => {
  const check = requiredString(MODULE_NAME_RULE);
  return (value: unknown) => (value === undefined ? null : check(value));
})();

export class CreateRegistryModuleAttributes {
  @Rule(requiredString(MODULE_NAME_RULE))
  name: string;

  @Rule(
    requiredString({ max: 64, pattern: MODULE_PROVIDER_PATTERN, patternMessage: MODULE_PROVIDER_MESSAGE }),
  )
  provider: string;

  /** Optional for private modules (the official client sends none): it is the organization's name. */
  @Rule(namespaceCheck)
  namespace?: string;

  /** `private` when left out, as the reference and its official client have it. */
  @Omittable()
  @IsIn(REGISTRY_NAMES, { message: 'is not included in the list' })
  'registry-name'?: RegistryName;

  /** Accepted for the official client's sake; no-code provisioning is not offered (always false). */
  @Nullable()
  @IsBoolean()
  'no-code'?: boolean | null;
}

export class CreateModuleVersionAttributes {
  @Rule(
    requiredString({
      max: 64,
      then: (v) => (isProviderVersion(v) ? null : 'is not a valid semantic version'),
    }),
  )
  version: string;

  /** Sent by the official client (null when unset); versions uploaded through the API have no commit. */
  @Nullable()
  @Rule(requiredString({ max: 64 }))
  'commit-sha'?: string | null;
}
