import { SignedLinks } from '../../src/storage/signed-links';
import { createCatalogVersion } from '../admin-catalogs/catalog-helpers';
import {
  bootstrapAdmin,
  createOrganization,
  createProject,
  createTeam,
  createUser,
  createWorkspace,
  grantWorkspace,
  reserveTagKey,
  unique,
} from '../helpers/fixtures';
import { TestApp } from '../helpers/test-app';
import { createPolicy, createPolicySet } from '../policy-sets/policy-fixtures';
import { FuzzFixtures } from './routes';

/** The site administrator's token and one of every resource the fuzzed routes name. */
export async function createFuzzFixtures(
  t: TestApp,
): Promise<{ adminToken: string; fixtures: FuzzFixtures }> {
  const admin = await bootstrapAdmin(t);
  const org = await createOrganization(admin);
  const projectId = await createProject(admin, org);
  const workspaceName = unique('ws');
  const workspaceId = await createWorkspace(admin, org, workspaceName, projectId);
  const teamId = await createTeam(admin, org, ['read-workspaces']);
  const teamWorkspaceId = await grantWorkspace(admin, teamId, workspaceId, 'read');
  const user = await createUser(t, admin);
  const tokens = await admin.api.get(`/api/v2/users/${admin.userId}/authentication-tokens`).expect(200);
  const fixtures: FuzzFixtures = {
    org,
    projectId,
    workspaceId,
    workspaceName,
    teamId,
    teamWorkspaceId,
    userId: user.userId!,
    tokenId: tokens.body.data[0].id,
    poolId: (
      await admin.api
        .post(`/api/v2/organizations/${org}/agent-pools`, {
          data: { type: 'agent-pools', attributes: { name: unique('pool') } },
        })
        .expect(201)
    ).body.data.id,
    uploadToken: t.app.get(SignedLinks).token({
      purpose: 'fuzz-nobody',
      resourceId: 'r',
      expiresAt: Math.floor(Date.now() / 1000) + 3600,
    }),
    policyId: await createPolicy(admin, org),
    policySetId: (await createPolicySet(admin, org)).id,
    reservedTagKeyId: await reserveTagKey(admin, org, unique('key'), false),
    catalogIds: {
      'engine-versions': await createCatalogVersion(admin, 'engine-versions', '1.9.0'),
      'policy-engine-versions': await createCatalogVersion(admin, 'policy-engine-versions', '0.9.0'),
    },
    unique,
  };
  return { adminToken: admin.token, fixtures };
}
