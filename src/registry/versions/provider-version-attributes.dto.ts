import * as semver from 'semver';
import { Check, requiredString, Rule } from '../validation';
import { isPlatformArch, isPlatformOs } from './platform-names';

export const PROTOCOLS = ['4.0', '5.0', '6.0'] as const;

/** A semantic version as written in a provider release (`1.2.3`, `2.0.0-beta.1`), no `v` prefix. */
export function isProviderVersion(value: string): boolean {
  return /^\d\S*$/.test(value) && semver.parse(value) !== null;
}

const protocolsCheck: Check = (value) => {
  if (value === undefined || value === null) return "can't be blank";
  if (!Array.isArray(value) || value.some((v) => typeof v !== 'string')) return 'must be an array of strings';
  if (value.length === 0) return "can't be blank";
  if (value.some((v) => !(PROTOCOLS as readonly string[]).includes(v as string))) {
    return `must contain only ${PROTOCOLS.join(', ')}`;
  }
  return null;
};

export class CreateProviderVersionAttributes {
  @Rule(
    requiredString({
      max: 64,
      then: (v) => (isProviderVersion(v) ? null : 'is not a valid semantic version'),
    }),
  )
  version: string;

  @Rule(requiredString({ max: 64 }))
  'key-id': string;

  @Rule(protocolsCheck)
  protocols: string[];
}

export class CreateProviderPlatformAttributes {
  @Rule(requiredString({ max: 16, then: (v) => (isPlatformOs(v) ? null : 'is not included in the list') }))
  os: string;

  @Rule(requiredString({ max: 16, then: (v) => (isPlatformArch(v) ? null : 'is not included in the list') }))
  arch: string;

  @Rule(requiredString({ max: 128 }))
  shasum: string;

  @Rule(requiredString({ max: 255 }))
  filename: string;
}
