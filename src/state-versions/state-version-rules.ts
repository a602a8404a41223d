import type { Principal, PrincipalResource } from '../common/auth/principal';
import { principalResource } from '../common/auth/principal';
import type { WorkspaceLockHolder } from '../workspaces/workspace-locks.service';

/**
 * The rules a state write follows and the words it is refused with. The texts of the lock,
 * lineage, serial and MD5 refusals are the real service's (its clients show them as they are), and
 * the unlock refusal carries the phrase its official client looks for.
 */
export const STATE_TEXTS = {
  notLocked: 'This workspace is not locked and will only accept state uploads when locked',
  lineage:
    'The lineage provided in the state file does not match the value currently known for this ' +
    'workspace. This means that the provided state is most likely not related to the target ' +
    'workspace. Check that the backend configuration is correct and try again.',
  serial: 'The serial provided in the state file is not greater than the serial currently known remotely',
  md5: 'The MD5 hash of the state provided does not match what is currently known for the same serial number',
  stillPending:
    'The workspace cannot be unlocked: the latest state version is still pending (its state has not ' +
    'been uploaded yet); upload it, or force-unlock the workspace to discard it',
  discarded: 'This state version was discarded: a newer state version replaced it before its state arrived',
  uploaded: 'This upload link has already been used',
  organizationToken: 'Organization tokens cannot write state: use a user or team token',
} as const;

const HOLDER_NAMES: Record<WorkspaceLockHolder['type'], string> = {
  users: 'User',
  teams: 'Team',
  organizations: 'Organization',
  runs: 'Run',
};

/** Why `p` may not write the state of a workspace whose lock `holder` has, or null when it may. */
export function lockRefusal(holder: WorkspaceLockHolder | null, p: Principal): string | null {
  if (!holder) return STATE_TEXTS.notLocked;
  const me: PrincipalResource = principalResource(p);
  if (holder.type === me.type && holder.id === me.id) return null;
  return lockedBy(holder);
}

/**
 * Why the run `runId` may not write the workspace's state, or null when it may: it holds the lock,
 * or nobody does (it ended, timed out or was force-canceled before its executor handed the state
 * over, or an administrator force-unlocked it: a state an apply left is kept whenever nobody else
 * holds the lock, because it describes infrastructure that exists).
 */
export function runLockRefusal(holder: WorkspaceLockHolder | null, runId: string): string | null {
  if (!holder || (holder.type === 'runs' && holder.id === runId)) return null;
  return lockedBy(holder);
}

const lockedBy = (holder: WorkspaceLockHolder) =>
  `This workspace is locked by ${HOLDER_NAMES[holder.type]}: only the holder of its lock may upload state`;

export interface DeclaredState {
  serial: number;
  md5: string;
  lineage: string | null;
  force: boolean;
}

export interface KnownState {
  serial: number;
  md5: string;
  lineage: string | null;
}

/**
 * Why a new state version conflicts with the current one (a 409), or null. `force` skips every
 * check, as `terraform state push -force` means it to.
 */
export function stateConflict(declared: DeclaredState, current: KnownState | null): string | null {
  if (!current || declared.force) return null;
  if (declared.lineage !== null && current.lineage !== null && declared.lineage !== current.lineage) {
    return STATE_TEXTS.lineage;
  }
  if (declared.serial < current.serial) return STATE_TEXTS.serial;
  if (declared.serial === current.serial && declared.md5 !== current.md5) return STATE_TEXTS.md5;
  return null;
}
