import { Violations } from '../common/errors/domain-error';
import { Edition } from '../config/app-config';
import { PolicyKind } from '../policies/policy-kinds';
import { ArchiveEntry } from '../storage/archive-inspector';
import { VcsRepoAttributes } from './dto/policy-set-attributes.dto';

export const LATEST = 'latest';

/** `latest`, `N.N.N` or `N.N.N-suffix`: the shape of every tool version pin. */
export const TOOL_VERSION = /^(latest|\d+\.\d+\.\d+(-[0-9A-Za-z.-]+)?)$/;

/** `<namespace>/<repo>`, or `<org>/<project>/_git/<repo>` for the one VCS host that nests projects. */
const SEGMENT = '[A-Za-z0-9._-]+';
export const VCS_IDENTIFIER = new RegExp(`^(${SEGMENT}/${SEGMENT}|${SEGMENT}/${SEGMENT}/_git/${SEGMENT})$`);

export const FREE_EDITION = { policySets: 1, policiesPerSet: 5 } as const;

export interface VcsRepo {
  identifier: string | null;
  branch: string | null;
  oauthTokenId: string | null;
  vcsAppInstallationId: string | null;
  ingressSubmodules: boolean;
}

/** The state a policy set would have after a create or an update, as the rules see it. */
export interface PolicySetDraft {
  kind: PolicyKind;
  global: boolean;
  overridable: boolean;
  agentEnabled: boolean;
  policyToolVersion: string;
  vcsRepo: VcsRepo | null;
  policiesPath: string | null;
  policyCount: number;
  projectCount: number;
  workspaceCount: number;
}

export function readVcsRepo(input: VcsRepoAttributes | null | undefined): VcsRepo | null {
  if (!input) return null;
  return {
    identifier: input.identifier ?? null,
    branch: input.branch || null,
    oauthTokenId: input['oauth-token-id'] ?? null,
    vcsAppInstallationId: input['vcs-app-installation-id'] ?? input['github-app-installation-id'] ?? null,
    ingressSubmodules: input['ingress-submodules'] ?? false,
  };
}

/** Every rule of the contract that a policy set's own state must satisfy; one violation per failure. */
export function policySetViolations(d: PolicySetDraft, violations = new Violations()): Violations {
  if (d.kind === 'framework_b' && d.agentEnabled) {
    violations.attribute('agent-enabled', 'is only valid for framework_a policy sets');
  }
  if (d.kind === 'framework_a' && d.overridable && !d.agentEnabled) {
    violations.attribute('overridable', 'requires agent-enabled for framework_a policy sets');
  }
  if (!TOOL_VERSION.test(d.policyToolVersion)) {
    violations.attribute('policy-tool-version', 'is invalid: use latest or N.N.N');
  } else if (d.kind === 'framework_a' && d.policyToolVersion !== LATEST && !d.agentEnabled) {
    violations.attribute(
      'policy-tool-version',
      'can be set only when agent-enabled is true for framework_a policy sets',
    );
  }
  if (d.vcsRepo) {
    if (!d.vcsRepo.identifier) {
      violations.attribute('vcs-repo.identifier', "can't be blank");
    } else if (!VCS_IDENTIFIER.test(d.vcsRepo.identifier)) {
      violations.attribute(
        'vcs-repo.identifier',
        'is invalid: use <namespace>/<repo> or <org>/<project>/_git/<repo>',
      );
    }
    if (d.vcsRepo.oauthTokenId && d.vcsRepo.vcsAppInstallationId) {
      violations.add(
        'Vcs repo oauth-token-id and vcs-app-installation-id cannot both be given',
        '/data/attributes/vcs-repo/vcs-app-installation-id',
      );
    }
    if (d.policyCount > 0) {
      violations.attribute('vcs-repo', 'cannot be used together with the policies relationship');
    }
  } else if (d.policiesPath !== null) {
    violations.attribute('policies-path', 'is valid only when vcs-repo is present');
  }
  if (d.global && d.projectCount > 0) {
    violations.add('Projects can be given only when global is false', '/data/relationships/projects');
  }
  if (d.global && d.workspaceCount > 0) {
    violations.add('Workspaces can be given only when global is false', '/data/relationships/workspaces');
  }
  return violations;
}

/** What a request introduces that the free edition limits. */
export interface EditionFacts {
  vcsRepoGiven: boolean;
  /** Policies the set would hold, when the request changes them. */
  policyCount?: number;
}

export function editionViolations(
  edition: Edition,
  facts: EditionFacts,
  violations = new Violations(),
): Violations {
  if (edition !== 'free') return violations;
  if (facts.vcsRepoGiven) {
    violations.attribute('vcs-repo', 'is not available in the free edition');
  }
  if (facts.policyCount !== undefined && facts.policyCount > FREE_EDITION.policiesPerSet) {
    violations.add(freePoliciesLimit(), '/data/relationships/policies');
  }
  return violations;
}

export function freePoliciesLimit(): string {
  return `The free edition allows at most ${FREE_EDITION.policiesPerSet} policies in a policy set`;
}

export function freePolicySetsLimit(): string {
  return `The free edition allows at most ${FREE_EDITION.policySets} policy set per organization`;
}

/** The policy set's own rule on an uploaded archive, on top of the shared safety rules. */
export function policyArchiveProblem(entries: readonly ArchiveEntry[]): string | null {
  return entries.some((e) => e.type === 'file') ? null : 'the archive contains no regular file';
}
