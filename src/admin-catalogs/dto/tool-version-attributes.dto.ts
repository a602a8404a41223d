import { isURL, registerDecorator } from 'class-validator';
import { CATALOG_VERSION } from '../catalogs';

/** The message of the rule a value breaks, or null when it satisfies every rule of its attribute. */
type Rule = (value: unknown) => string | null;

const BLANK = "can't be blank";

/**
 * Applies a rule to one attribute. A rule reports at most one message, so an attribute that
 * breaks one rule yields one error (a missing version is "can't be blank", not three errors).
 */
function Satisfies(rule: Rule): PropertyDecorator {
  return (target, propertyName) =>
    registerDecorator({
      name: 'satisfies',
      target: target.constructor,
      propertyName: propertyName as string,
      validator: {
        validate: (value: unknown) => rule(value) === null,
        defaultMessage: (args) => rule(args?.value) ?? '',
      },
    });
}

const absent = (v: unknown) => v === undefined;

/** Required on create: absent, null and "" are all blank. */
const required =
  (rule: Rule): Rule =>
  (v) =>
    v === undefined || v === null || v === '' ? BLANK : rule(v);

/** Optional on update: omitted keeps the stored value, but a sent value must be valid. */
const optional =
  (rule: Rule): Rule =>
  (v) =>
    absent(v) ? null : rule(v);

const text =
  (max: number, valid: (s: string) => boolean, invalid: string): Rule =>
  (v) => {
    if (typeof v !== 'string') return 'must be a string';
    if (v.length > max) return `is too long (maximum is ${max} characters)`;
    return valid(v) ? null : invalid;
  };

const versionRule = text(64, (s) => CATALOG_VERSION.test(s), 'is invalid: use N.N.N or N.N.N-bundleName');
const urlRule = text(
  2048,
  (s) => isURL(s, { protocols: ['http', 'https'], require_protocol: true, require_tld: false }),
  'is invalid: use an http or https URL',
);
const shaRule = text(
  64,
  (s) => /^[0-9a-fA-F]{64}$/.test(s),
  'is invalid: use the 64 hexadecimal characters of a SHA-256 checksum',
);
const reasonRule: Rule = (v) => (v === null ? null : text(2000, () => true, '')(v));
const booleanRule: Rule = (v) => (typeof v === 'boolean' ? null : 'must be a boolean');

export const WRITABLE_ATTRIBUTES = [
  'version',
  'url',
  'sha',
  'deprecated',
  'deprecated-reason',
  'official',
  'enabled',
  'beta',
] as const;

/** A new catalog entry: version, url and sha are required; the flags default as the contract says. */
export class CreateToolVersionAttributes {
  @Satisfies(required(versionRule))
  version: string;

  @Satisfies(required(urlRule))
  url: string;

  @Satisfies(required(shaRule))
  sha: string;

  @Satisfies(optional(booleanRule))
  deprecated?: boolean;

  @Satisfies(optional(reasonRule))
  'deprecated-reason'?: string | null;

  @Satisfies(optional(booleanRule))
  official?: boolean;

  @Satisfies(optional(booleanRule))
  enabled?: boolean;

  @Satisfies(optional(booleanRule))
  beta?: boolean;
}

/**
 * One entry of a catalog file: the version names the entry, everything else is optional. A version
 * the catalog does not hold yet is then checked as a create (url and sha required); an existing
 * one takes only what the entry gives, so a file may change flags without repeating url and sha.
 */
export class ImportToolVersionAttributes {
  @Satisfies(required(versionRule))
  version: string;

  @Satisfies(optional(required(urlRule)))
  url?: string;

  @Satisfies(optional(required(shaRule)))
  sha?: string;

  @Satisfies(optional(booleanRule))
  deprecated?: boolean;

  @Satisfies(optional(reasonRule))
  'deprecated-reason'?: string | null;

  @Satisfies(optional(booleanRule))
  official?: boolean;

  @Satisfies(optional(booleanRule))
  enabled?: boolean;

  @Satisfies(optional(booleanRule))
  beta?: boolean;
}

/** Changes to an entry: every attribute is optional; an omitted one keeps its value. */
export class UpdateToolVersionAttributes {
  @Satisfies(optional(required(versionRule)))
  version?: string;

  @Satisfies(optional(required(urlRule)))
  url?: string;

  @Satisfies(optional(required(shaRule)))
  sha?: string;

  @Satisfies(optional(booleanRule))
  deprecated?: boolean;

  @Satisfies(optional(reasonRule))
  'deprecated-reason'?: string | null;

  @Satisfies(optional(booleanRule))
  official?: boolean;

  @Satisfies(optional(booleanRule))
  enabled?: boolean;

  @Satisfies(optional(booleanRule))
  beta?: boolean;
}
