import { Violations } from '../common/errors/domain-error';
import { UpdateToolVersionAttributes } from './dto/tool-version-attributes.dto';
import { ToolVersionEntity } from './entities/tool-version.entity';

/** The stored fields a request or an import entry sets; an absent key keeps the stored value. */
export type ToolVersionChanges = Partial<
  Pick<
    ToolVersionEntity,
    'version' | 'url' | 'sha' | 'deprecated' | 'deprecatedReason' | 'official' | 'enabled' | 'beta'
  >
>;

/** Validated attributes (create or update) as stored fields. */
export function changesFrom(attrs: UpdateToolVersionAttributes): ToolVersionChanges {
  const changes: ToolVersionChanges = {};
  if (attrs.version !== undefined) changes.version = attrs.version;
  if (attrs.url !== undefined) changes.url = attrs.url;
  if (attrs.sha !== undefined) changes.sha = attrs.sha.toLowerCase();
  if (attrs.deprecated !== undefined) changes.deprecated = attrs.deprecated;
  // An empty reason says nothing; it is stored as no reason.
  if (attrs['deprecated-reason'] !== undefined) changes.deprecatedReason = attrs['deprecated-reason'] || null;
  if (attrs.official !== undefined) changes.official = attrs.official;
  if (attrs.enabled !== undefined) changes.enabled = attrs.enabled;
  if (attrs.beta !== undefined) changes.beta = attrs.beta;
  return changes;
}

/**
 * Applies `changes` to `entry`, recording in `violations` what the result may not be: a reason
 * belongs only to a deprecated version, and un-deprecating a version drops its reason.
 */
export function applyChanges(
  entry: ToolVersionEntity,
  changes: ToolVersionChanges,
  violations: Violations,
): void {
  const { deprecatedReason, ...rest } = changes;
  Object.assign(entry, rest);
  if (deprecatedReason !== undefined) {
    if (deprecatedReason !== null && !entry.deprecated) {
      violations.attribute('deprecated-reason', 'can only be set on a deprecated version');
    }
    entry.deprecatedReason = deprecatedReason;
  }
  if (!entry.deprecated) entry.deprecatedReason = null;
}

const COMPARED = [
  'version',
  'url',
  'sha',
  'deprecated',
  'deprecatedReason',
  'official',
  'enabled',
  'beta',
] as const;

/** Whether two entries hold the same values (an import that changes nothing leaves it alone). */
export function sameValues(a: ToolVersionEntity, b: ToolVersionEntity): boolean {
  return COMPARED.every((key) => a[key] === b[key]);
}
