import { DomainError } from '../common/errors/domain-error';
import {
  editionViolations,
  PolicySetDraft,
  policySetViolations,
  readVcsRepo,
  VCS_IDENTIFIER,
} from './policy-set-rules';

const base: PolicySetDraft = {
  kind: 'framework_a',
  global: false,
  overridable: false,
  agentEnabled: false,
  policyToolVersion: 'latest',
  vcsRepo: null,
  policiesPath: null,
  policyCount: 0,
  projectCount: 0,
  workspaceCount: 0,
};

/** The [detail, pointer] pairs the rules report for a draft (empty when it passes). */
function failures(changes: Partial<PolicySetDraft>): [string | undefined, string | undefined][] {
  try {
    policySetViolations({ ...base, ...changes }).throwIfAny();
    return [];
  } catch (err) {
    return (err as DomainError).items.map((i) => [i.detail, i.pointer]);
  }
}

const vcs = (identifier: string | null, extra: Partial<ReturnType<typeof readVcsRepo>> = {}) => ({
  identifier,
  branch: null,
  oauthTokenId: null,
  vcsAppInstallationId: null,
  ingressSubmodules: false,
  ...extra,
});

describe('policy set rules', () => {
  it('accept the defaults', () => {
    expect(failures({})).toEqual([]);
  });

  it('accept an agent-enabled framework_a set that is overridable and pins a tool version', () => {
    expect(failures({ agentEnabled: true, overridable: true, policyToolVersion: '0.23.0' })).toEqual([]);
  });

  it('accept a framework_b set that is overridable and pins a version without agent-enabled', () => {
    expect(failures({ kind: 'framework_b', overridable: true, policyToolVersion: '0.61.0-beta.1' })).toEqual(
      [],
    );
  });

  it('refuse agent-enabled on framework_b', () => {
    expect(failures({ kind: 'framework_b', agentEnabled: true })).toEqual([
      ['Agent enabled is only valid for framework_a policy sets', '/data/attributes/agent-enabled'],
    ]);
  });

  it('refuse overridable and a pinned version on framework_a without agent-enabled, one error each', () => {
    expect(failures({ overridable: true, policyToolVersion: '1.0.0' })).toEqual([
      ['Overridable requires agent-enabled for framework_a policy sets', '/data/attributes/overridable'],
      [
        'Policy tool version can be set only when agent-enabled is true for framework_a policy sets',
        '/data/attributes/policy-tool-version',
      ],
    ]);
  });

  it.each(['1.0', 'v1.0.0', 'newest', ''])('refuse the tool version %j', (version) => {
    expect(failures({ agentEnabled: true, policyToolVersion: version })).toEqual([
      ['Policy tool version is invalid: use latest or N.N.N', '/data/attributes/policy-tool-version'],
    ]);
  });

  it.each(['acme/policies', 'my.org/repo-name_1', 'contoso/platform/_git/policies'])(
    'accept the VCS identifier %s',
    (identifier) => {
      expect(VCS_IDENTIFIER.test(identifier)).toBe(true);
      expect(failures({ vcsRepo: vcs(identifier) })).toEqual([]);
    },
  );

  it.each(['repo', 'a/b/c', '/a/b', 'a/b/', 'a//b', 'a/b/_git/c/d', 'a b/c'])(
    'refuse the VCS identifier %j',
    (identifier) => {
      expect(failures({ vcsRepo: vcs(identifier) })).toEqual([
        [
          'Vcs repo identifier is invalid: use <namespace>/<repo> or <org>/<project>/_git/<repo>',
          '/data/attributes/vcs-repo/identifier',
        ],
      ]);
    },
  );

  it('require the identifier when vcs-repo is given', () => {
    expect(failures({ vcsRepo: vcs(null) })).toEqual([
      ["Vcs repo identifier can't be blank", '/data/attributes/vcs-repo/identifier'],
    ]);
  });

  it('refuse an OAuth token together with an app installation', () => {
    expect(failures({ vcsRepo: vcs('a/b', { oauthTokenId: 'ot-1', vcsAppInstallationId: 'i-1' }) })).toEqual([
      [
        'Vcs repo oauth-token-id and vcs-app-installation-id cannot both be given',
        '/data/attributes/vcs-repo/vcs-app-installation-id',
      ],
    ]);
  });

  it('refuse vcs-repo with policies, and policies-path without vcs-repo', () => {
    expect(failures({ vcsRepo: vcs('a/b'), policyCount: 1 })).toEqual([
      ['Vcs repo cannot be used together with the policies relationship', '/data/attributes/vcs-repo'],
    ]);
    expect(failures({ policiesPath: 'sub/dir' })).toEqual([
      ['Policies path is valid only when vcs-repo is present', '/data/attributes/policies-path'],
    ]);
    expect(failures({ vcsRepo: vcs('a/b'), policiesPath: 'sub/dir' })).toEqual([]);
  });

  it('refuse projects and workspaces on a global set, but not exclusions or policies', () => {
    expect(failures({ global: true, projectCount: 1, workspaceCount: 2 })).toEqual([
      ['Projects can be given only when global is false', '/data/relationships/projects'],
      ['Workspaces can be given only when global is false', '/data/relationships/workspaces'],
    ]);
    expect(failures({ global: true, policyCount: 3 })).toEqual([]);
  });

  it('read the app installation id from either attribute name and drop an empty branch', () => {
    expect(readVcsRepo({ identifier: 'a/b', branch: '', 'github-app-installation-id': 'i-9' })).toEqual(
      vcs('a/b', { vcsAppInstallationId: 'i-9' }),
    );
    expect(readVcsRepo(null)).toBeNull();
  });
});

describe('edition limits', () => {
  const details = (v: ReturnType<typeof editionViolations>) => {
    try {
      v.throwIfAny();
      return [];
    } catch (err) {
      return (err as DomainError).items.map((i) => i.detail);
    }
  };

  it('do not apply to the enterprise edition', () => {
    expect(details(editionViolations('enterprise', { vcsRepoGiven: true, policyCount: 50 }))).toEqual([]);
  });

  it('refuse a VCS repository and more than five policies in the free edition, naming the limit', () => {
    expect(details(editionViolations('free', { vcsRepoGiven: true, policyCount: 6 }))).toEqual([
      'Vcs repo is not available in the free edition',
      'The free edition allows at most 5 policies in a policy set',
    ]);
    expect(details(editionViolations('free', { vcsRepoGiven: false, policyCount: 5 }))).toEqual([]);
  });
});
