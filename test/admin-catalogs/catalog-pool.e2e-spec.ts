import type { Response } from 'supertest';
import { Actor, unique, startWithOwnedOrganization } from '../helpers/fixtures';
import { TestApp, usesMysql } from '../helpers/test-app';
import { CatalogName, createCatalogVersion, versionBody } from './catalog-helpers';

const ROUNDS = 4;
const PINS_PER_ENTRY = 6;

/**
 * A delete or rename of a catalog entry locks the entry and then counts the consumers that pin
 * it; pinned creates wait on that lock. With the count on a second connection, two such creates
 * could hold both pooled connections and every request waited for the acquire deadline (503).
 */
(usesMysql() ? describe : describe.skip)(
  'catalog deletes and renames racing pinned creates on a pool of 2 connections (MariaDB only: SQLite has one connection and no pool)',
  () => {
    let t: TestApp;
    let admin: Actor;
    let owner: Actor;
    let org: string;

    beforeAll(async () => {
      ({ t, admin, owner, org } = await startWithOwnedOrganization({ DB_POOL_SIZE: '2' }));
    });
    afterAll(() => t.close());

    const consumers: Record<CatalogName, { noun: string; pin: (version: string) => Promise<Response> }> = {
      'engine-versions': {
        noun: 'workspace',
        pin: (version) =>
          owner.api.post(`/api/v2/organizations/${org}/workspaces`, {
            data: { type: 'workspaces', attributes: { name: unique('ws'), 'engine-version': version } },
          }),
      },
      'policy-engine-versions': {
        noun: 'policy set',
        pin: (version) =>
          owner.api.post(`/api/v2/organizations/${org}/policy-sets`, {
            data: {
              type: 'policy-sets',
              attributes: { name: unique('opa'), kind: 'framework_b', 'policy-tool-version': version },
            },
          }),
      },
    };

    const statuses = (responses: Response[]) => responses.map((r) => r.status);
    const escaped = (version: string) => version.replace(/\./g, '\\.');
    const used = (res: Response) => Number(/is used by (\d+) /.exec(JSON.stringify(res.body))?.[1] ?? 0);

    describe.each(Object.keys(consumers) as CatalogName[])('%s', (catalog) => {
      const { noun, pin } = consumers[catalog];

      it.each(Array.from({ length: ROUNDS }, (_, i) => i + 1))(
        'round %i: every request is answered 2xx or 422, and no pin outlives its entry',
        async (round) => {
          const doomed = `9.${round}.0`;
          const renamed = `9.${round}.1`;
          const newName = `9.${round}.2`;
          const doomedId = await createCatalogVersion(admin, catalog, doomed);
          const renamedId = await createCatalogVersion(admin, catalog, renamed);

          const [deleted, rename, ...pins] = await Promise.all([
            admin.api.delete(`/api/v2/admin/${catalog}/${doomedId}`),
            admin.api.patch(
              `/api/v2/admin/${catalog}/${renamedId}`,
              versionBody(catalog, { version: newName }),
            ),
            ...Array.from({ length: PINS_PER_ENTRY }, () => pin(doomed)),
            ...Array.from({ length: PINS_PER_ENTRY }, () => pin(renamed)),
          ]);
          const doomedPins = pins.slice(0, PINS_PER_ENTRY);
          const renamedPins = pins.slice(PINS_PER_ENTRY);

          expect([204, 422]).toContain(deleted.status);
          expect([200, 422]).toContain(rename.status);
          expect(statuses(pins).filter((s) => s !== 201 && s !== 422)).toEqual([]);

          const pinnedDoomed = doomedPins.filter((r) => r.status === 201).length;
          if (deleted.status === 204) {
            expect(pinnedDoomed).toBe(0);
          } else {
            expect(deleted.body.errors).toEqual([
              {
                status: '422',
                title: 'invalid attribute',
                detail: expect.stringMatching(
                  new RegExp(`^Version ${escaped(doomed)} is used by \\d+ ${noun}s? and cannot be deleted$`),
                ),
              },
            ]);
            expect(used(deleted)).toBeGreaterThanOrEqual(1);
            expect(used(deleted)).toBeLessThanOrEqual(pinnedDoomed);
          }

          const pinnedRenamed = renamedPins.filter((r) => r.status === 201).length;
          if (rename.status === 200) {
            expect(pinnedRenamed).toBe(0);
            expect(rename.body.data.attributes).toMatchObject({ version: newName, usage: 0 });
          } else {
            expect(rename.body.errors).toEqual([
              {
                status: '422',
                title: 'invalid attribute',
                detail: expect.stringMatching(
                  new RegExp(
                    `^Version cannot be changed while ${escaped(renamed)} is used by \\d+ ${noun}s?$`,
                  ),
                ),
                source: { pointer: '/data/attributes/version' },
              },
            ]);
            const shown = await admin.api.get(`/api/v2/admin/${catalog}/${renamedId}`).expect(200);
            expect(shown.body.data.attributes).toMatchObject({ version: renamed, usage: pinnedRenamed });
          }
        },
      );
    });
  },
);
