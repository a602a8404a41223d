import { Actor, bootstrapAdmin, createOrganization } from '../helpers/fixtures';
import { tarGz, TarEntry } from '../helpers/tarball';
import { startApp, TestApp } from '../helpers/test-app';
import { putArchive, refusalDocument, UPLOAD_KINDS } from './archive-uploads';

jest.setTimeout(120_000);

/** Longer than a tar header's 100-byte link field, so only an extended record can carry it. */
const ABSOLUTE_TARGET = `/etc/${'deep/'.repeat(24)}cron.d`;
const CLIMBING_TARGET = `${'../'.repeat(40)}etc/cron.d`;
const INSIDE_TARGET = `${'sub/'.repeat(30)}main.tf`;

/** An archive every upload kind would take (a `main.tf` at the root), then `entries`. */
const archive = (entries: TarEntry[]) =>
  tarGz([
    { path: 'main.tf', body: 'resource "null_resource" "x" {}\n' },
    { path: 'sentinel.hcl', body: 'policy "p" {\n  enforcement_level = "advisory"\n}\n' },
    { path: 'p.sentinel', body: 'main = rule { true }\n' },
    ...entries,
  ]);

/** The record forms a long link target travels in; the header's own field holds a harmless name. */
const FORMS = [
  ['pax linkpath', (target: string) => ({ linkpath: 'harmless', pax: { linkpath: target } })],
  ['GNU long link', (target: string) => ({ linkpath: 'harmless', gnuLinkpath: target })],
] as const;

describe('archive links with targets longer than the tar header field', () => {
  let t: TestApp;
  let admin: Actor;
  let org: string;

  beforeAll(async () => {
    t = await startApp();
    admin = await bootstrapAdmin(t);
    org = await createOrganization(admin);
  });
  afterAll(() => t.close());

  describe.each(UPLOAD_KINDS)('$name', (kind) => {
    describe.each(FORMS)('in a %s', (_form, long) => {
      it.each([
        ['a symbolic link to an absolute path', 'SymbolicLink', ABSOLUTE_TARGET],
        ['a symbolic link that climbs out', 'SymbolicLink', CLIMBING_TARGET],
        ['a hard link that climbs out', 'Link', CLIMBING_TARGET],
      ])('refuses %s and records why', async (_case, type, target) => {
        const version = await kind.create(admin, org);
        const reason = 'link escape points outside the archive';
        const escaping = archive([{ path: 'escape', type, ...long(target) }]);
        const res = await putArchive(version.upload, escaping).expect(422);
        expect(res.body).toEqual(refusalDocument(reason));
        expect(await version.attributes()).toEqual(kind.refused(reason));
      });

      it('takes a long target that stays inside', async () => {
        const target = await kind.create(admin, org);
        await putArchive(
          target.upload,
          archive([
            { path: INSIDE_TARGET, body: 'x' },
            { path: 'alias', type: 'SymbolicLink', ...long(INSIDE_TARGET) },
            { path: 'copy', type: 'Link', ...long(INSIDE_TARGET) },
          ]),
        ).expect(200);
        expect(await target.attributes()).toMatchObject({ status: kind.accepted });
      });
    });

    it('refuses an entry named by a pax path outside the archive', async () => {
      const target = await kind.create(admin, org);
      const reason = 'entry /etc/cron.d/evil has an absolute path';
      const prefixed = `${'p'.repeat(80)}/${'q'.repeat(60)}/f`;
      const res = await putArchive(
        target.upload,
        archive([{ path: prefixed, body: 'x', pax: { path: '/etc/cron.d/evil' } }]),
      ).expect(422);
      expect(res.body).toEqual(refusalDocument(reason));
      expect(await target.attributes()).toEqual(kind.refused(reason));
    });
  });
});
