import { mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import request from 'supertest';
import { startApp, usesMysql } from '../helpers/test-app';
import { registerTestUploads, TestUploads } from '../helpers/test-uploads';

const mode = (path: string) => statSync(path).mode & 0o777;

/** Every directory and file under `dir`, itself included, with its permission bits. */
function modes(dir: string): Record<string, string> {
  const out: Record<string, string> = { '.': mode(dir).toString(8) };
  for (const entry of readdirSync(dir, { recursive: true, encoding: 'utf8' })) {
    out[entry] = mode(join(dir, entry)).toString(8);
  }
  return out;
}

describe('files Plinth creates', () => {
  it('keeps the data directory, the SQLite file, the signing secret, the encryption key and stored blobs owner-only', async () => {
    const parent = mkdtempSync(join(tmpdir(), 'plinth-modes-'));
    const dataDir = join(parent, 'data');
    const env: Record<string, string> = { DATA_DIR: dataDir, SIGNING_SECRET: '' };
    if (!usesMysql()) env.DATABASE_URL = `sqlite:${join(dataDir, 'db', 'plinth.sqlite')}`;
    const t = await startApp(env);
    try {
      const uploads = registerTestUploads(t.app);
      await request(t.origin)
        .put(TestUploads.link(t.app, 'nested/blob'))
        .send(Buffer.from('hello'))
        .expect(200);
      expect(uploads.uploaded.get('nested/blob')).toMatchObject({ size: 5 });

      const found = modes(dataDir);
      const expected: Record<string, string> = {
        '.': '700',
        'encryption-key': '600',
        'signing-secret': '600',
        blobs: '700',
        // Where puts are written before they are renamed into place.
        'blobs/.uploading': '700',
        'blobs/test-uploads': '700',
        'blobs/test-uploads/nested': '700',
        'blobs/test-uploads/nested/blob': '600',
      };
      if (!usesMysql()) {
        expected.db = '700';
        expected['db/plinth.sqlite'] = '600';
        // SQLite gives its journal files the database file's mode.
        for (const extra of ['db/plinth.sqlite-wal', 'db/plinth.sqlite-shm']) {
          if (extra in found) expected[extra] = '600';
        }
      }
      expect(found).toEqual(expected);
    } finally {
      await t.close();
      rmSync(parent, { recursive: true, force: true });
    }
  });
});
