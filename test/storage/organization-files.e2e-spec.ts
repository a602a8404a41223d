import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import request from 'supertest';
import { Actor, bootstrapAdmin, createOrganization } from '../helpers/fixtures';
import { tarGz } from '../helpers/tarball';
import { startApp, TestApp } from '../helpers/test-app';
import { createPolicy, createPolicySet } from '../policy-sets/policy-fixtures';
import { generateSigningKey, providerBase, createProvider, publish } from '../registry/registry-helpers';

/** Every regular file under `dir`, as paths relative to it. */
function filesUnder(dir: string, prefix = ''): string[] {
  let entries;
  try {
    entries = readdirSync(join(dir, prefix), { withFileTypes: true });
  } catch {
    return [];
  }
  return entries.flatMap((e) =>
    e.isDirectory() ? filesUnder(dir, join(prefix, e.name)) : [join(prefix, e.name)],
  );
}

describe('deleting an organization', () => {
  let t: TestApp;
  let admin: Actor;

  beforeAll(async () => {
    t = await startApp();
    admin = await bootstrapAdmin(t);
  });
  afterAll(() => t.close());

  it('removes the stored files of its policies, policy set versions and providers, and only those', async () => {
    const blobs = join(t.config.dataDir, 'blobs');
    const populate = async (org: string) => {
      const policyId = await createPolicy(admin, org);
      await request(t.origin)
        .put(`/api/v2/policies/${policyId}/upload`)
        .set('Authorization', `Bearer ${admin.token}`)
        .set('Content-Type', 'text/plain')
        .send('main = rule { true }')
        .expect(204);
      const set = await createPolicySet(admin, org);
      const version = await admin.api.post(`/api/v2/policy-sets/${set.id}/versions`).expect(201);
      await request(version.body.data.links.upload)
        .put('')
        .set('Content-Type', 'application/octet-stream')
        .send(tarGz([{ path: 'main.sentinel', body: 'main = rule { true }' }]))
        .expect(200);
      await createProvider(admin, org, 'aws');
      await publish(admin, providerBase(org, 'aws'), 'aws', '1.0.0', await generateSigningKey());
    };
    const doomed = await createOrganization(admin);
    const kept = await createOrganization(admin);
    await populate(doomed);
    await populate(kept);
    const before = filesUnder(blobs);
    expect(before.length).toBeGreaterThanOrEqual(10);

    await admin.api.delete(`/api/v2/organizations/${doomed}`).expect(204);

    const after = filesUnder(blobs);
    expect(after.length).toBe(before.length / 2);
    const keptCheck = await admin.api.get(`/api/v2/organizations/${kept}/policies`).expect(200);
    expect(keptCheck.body.data).toHaveLength(1);
    const download = await admin.api
      .get(`/api/v2/policies/${keptCheck.body.data[0].id}/download`)
      .expect(200);
    expect(download.text).toBe('main = rule { true }');
  });
});
