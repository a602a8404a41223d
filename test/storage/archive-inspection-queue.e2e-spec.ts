import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { BlobStore, PutOptions, StoredBlob } from '../../src/storage/blob-store';
import { FsBlobStore } from '../../src/storage/fs-blob-store';
import { Actor, bootstrapAdmin, createOrganization } from '../helpers/fixtures';
import { tarGz, TarEntry } from '../helpers/tarball';
import { startApp, TestApp } from '../helpers/test-app';
import { ArchiveTarget, putArchive, refusalDocument, UPLOAD_KINDS } from './archive-uploads';

jest.setTimeout(120_000);

interface Signal {
  fire(): void;
  fired: Promise<void>;
}

/** Something that happens once, and a promise the test can await for it. */
function signal(): Signal {
  let fire!: () => void;
  const fired = new Promise<void>((resolve) => (fire = resolve));
  return { fire, fired };
}

/** The answer to a request sent now and awaited later (a failure is reported where it is awaited). */
function later(req: ReturnType<typeof putArchive>) {
  const answer = req.then((res) => res);
  answer.catch(() => undefined);
  return answer;
}

/** Lets every callback already queued run (the app enters the queue right after a put resolves). */
const settled = () => new Promise((resolve) => setImmediate(resolve));

/**
 * The app's blob store, watched: the test hears when an archive is stored and when its inspection
 * opens it (which happens once the inspection has a worker), and can hold an inspection on its
 * worker until it lets it go.
 */
class WatchedBlobStore extends BlobStore {
  private readonly stored = new Map<string, Signal>();
  private readonly opened = new Map<string, Signal>();
  private readonly held = new Map<string, Signal>();
  readonly openOrder: string[] = [];

  constructor(private readonly inner: BlobStore) {
    super();
  }

  /** Holds the inspection of the resource with this id on its worker until `release(id)`. */
  hold(id: string): void {
    this.held.set(id, signal());
  }

  release(id: string): void {
    this.held.get(id)?.fire();
  }

  whenStored(id: string): Promise<void> {
    return this.watch(this.stored, id).fired;
  }

  whenOpened(id: string): Promise<void> {
    return this.watch(this.opened, id).fired;
  }

  async put(key: string, source: Readable, options: PutOptions): Promise<StoredBlob> {
    const stored = await this.inner.put(key, source, options);
    this.fire(this.stored, key);
    return stored;
  }

  async get(key: string): Promise<Readable> {
    const id = this.idIn(key);
    if (id) this.openOrder.push(id);
    this.fire(this.opened, key);
    const hold = id && this.held.get(id);
    if (hold) await hold.fired;
    return this.inner.get(key);
  }

  stat(key: string) {
    return this.inner.stat(key);
  }

  delete(key: string) {
    return this.inner.delete(key);
  }

  deletePrefix(prefix: string) {
    return this.inner.deletePrefix(prefix);
  }

  sweepTemporary(olderThan: Date) {
    return this.inner.sweepTemporary(olderThan);
  }

  private watch(signals: Map<string, Signal>, id: string) {
    const existing = signals.get(id);
    if (existing) return existing;
    const created = signal();
    signals.set(id, created);
    return created;
  }

  private fire(signals: Map<string, Signal>, key: string): void {
    const id = this.idIn(key);
    if (id) this.watch(signals, id).fire();
  }

  /** The resource id a blob key names (every archive key holds its version's id). */
  private idIn(key: string): string | undefined {
    return key.match(/(polsetver|cv|modver)-[0-9A-Za-z]{16}/)?.[0];
  }
}

const FILES: TarEntry[] = [
  { path: 'main.tf', body: 'resource "null_resource" "x" {}\n' },
  { path: 'sentinel.hcl', body: 'policy "p" {\n  enforcement_level = "advisory"\n}\n' },
  { path: 'p.sentinel', body: 'main = rule { true }\n' },
];
const GOOD_ARCHIVE = tarGz(FILES);

/**
 * A link-tree bomb: a chain of 30 links, then 40 links into the end of the chain. 74 headers, but
 * every path through the chain costs 60 steps of resolution.
 */
function linkChainBomb(): Buffer {
  const entries: TarEntry[] = [...FILES, { path: 'L0', type: 'SymbolicLink', linkpath: '.' }];
  for (let k = 1; k <= 30; k++) entries.push({ path: `L${k}`, type: 'SymbolicLink', linkpath: `L${k - 1}` });
  for (let i = 0; i < 40; i++) entries.push({ path: `e${i}`, type: 'SymbolicLink', linkpath: 'L30' });
  return tarGz(entries);
}

const ENTRY_CAP = 100;
const COST_REFUSAL =
  `the archive has more than ${ENTRY_CAP} entries once its links are counted at their cost ` +
  `(resolving its paths takes more than ${ENTRY_CAP * 32} steps, 32 per entry; the entry-count cap)`;

describe('archive inspection under load', () => {
  let t: TestApp;
  let admin: Actor;
  let dataDir: string;
  let blobs: WatchedBlobStore;

  beforeAll(async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'plinth-inspection-queue-'));
    blobs = new WatchedBlobStore(new FsBlobStore(dataDir));
    t = await startApp(
      {
        ARCHIVE_INSPECTION_WORKERS: '1',
        ARCHIVE_INSPECTIONS_PER_ORGANIZATION: '2',
        MAX_POLICY_ARCHIVE_ENTRIES: String(ENTRY_CAP),
        MAX_CONFIGURATION_ENTRIES: String(ENTRY_CAP),
        MAX_MODULE_ARCHIVE_ENTRIES: String(ENTRY_CAP),
      },
      [{ provide: BlobStore, useValue: blobs }],
    );
    admin = await bootstrapAdmin(t);
  });
  afterAll(async () => {
    await t.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  describe.each(UPLOAD_KINDS)('$name', (kind) => {
    it('refuses a link-tree bomb at the entry-count cap, counting its links at their cost', async () => {
      const org = await createOrganization(admin);
      const version = await kind.create(admin, org);
      const res = await putArchive(version.upload, linkChainBomb()).expect(422);
      expect(res.body).toEqual(refusalDocument(COST_REFUSAL));
      expect(await version.attributes()).toEqual(kind.refused(COST_REFUSAL));
    });
  });

  it("refuses an organization's inspection past its bound with 429 and Retry-After, the link usable again", async () => {
    const org = await createOrganization(admin);
    const [policy, config, module] = UPLOAD_KINDS;
    const first = await policy.create(admin, org);
    const second = await config.create(admin, org);
    const third = await module.create(admin, org);
    blobs.hold(first.id);
    const firstAnswer = later(putArchive(first.upload, GOOD_ARCHIVE));
    await blobs.whenOpened(first.id);
    // The first holds the only worker; the second waits for it, and org has 2 inspections under way.
    const secondAnswer = later(putArchive(second.upload, GOOD_ARCHIVE));
    await blobs.whenStored(second.id);
    await settled();

    const refused = await putArchive(third.upload, GOOD_ARCHIVE).expect(429);
    expect(refused.headers['retry-after']).toBe('5');
    expect(refused.headers['content-type']).toBe('application/vnd.api+json');
    expect(refused.body).toEqual({
      errors: [
        {
          status: '429',
          title: 'too many requests',
          detail: 'This organization already has 2 archive inspections under way; try again in 5 seconds',
        },
      ],
    });
    expect(await third.attributes()).toMatchObject({ status: module.waiting, error: null });

    blobs.release(first.id);
    expect((await firstAnswer).status).toBe(200);
    expect((await secondAnswer).status).toBe(200);
    await putArchive(third.upload, GOOD_ARCHIVE).expect(200);
    expect(await third.attributes()).toMatchObject({ status: module.accepted, error: null });
  });

  it("inspects another organization's upload before a waiting one of the organization that holds the worker", async () => {
    const busy = await createOrganization(admin);
    const other = await createOrganization(admin);
    const [policy, config] = UPLOAD_KINDS;
    const held = await policy.create(admin, busy);
    const queued = await policy.create(admin, busy);
    const fromOther = await config.create(admin, other);
    blobs.hold(held.id);
    blobs.hold(queued.id);
    const heldAnswer = later(putArchive(held.upload, GOOD_ARCHIVE));
    await blobs.whenOpened(held.id);
    const queuedAnswer = later(putArchive(queued.upload, GOOD_ARCHIVE));
    await blobs.whenStored(queued.id);
    await settled();
    const otherAnswer = later(putArchive(fromOther.upload, GOOD_ARCHIVE));
    await blobs.whenStored(fromOther.id);
    await settled();

    blobs.release(held.id);
    // The busy organization's second archive gets the worker only after the other organization's
    // (held on its worker, it would otherwise hold the other one up until it is let go).
    await blobs.whenOpened(queued.id);
    expect(blobs.openOrder.slice(-3)).toEqual([held.id, fromOther.id, queued.id]);
    expect((await otherAnswer).status).toBe(200);

    blobs.release(queued.id);
    expect((await heldAnswer).status).toBe(200);
    expect((await queuedAnswer).status).toBe(200);
    const attributes = await Promise.all([held, queued].map((v: ArchiveTarget) => v.attributes()));
    expect(attributes.map((a) => a.status)).toEqual(['ready', 'ready']);
  });
});
