/**
 * A real server process for tests that send signals: the production startServer() plus the
 * test-only upload purpose. Prints one JSON line `{"ready":true,"uploadPath":"/uploads/…"}` once
 * it listens.
 */
import 'reflect-metadata';
import { startServer } from '../../src/start-server';
import { registerTestUploads, TestUploads } from './test-uploads';

void startServer({ prepare: (app) => void registerTestUploads(app) }).then((app) => {
  process.stdout.write(`${JSON.stringify({ ready: true, uploadPath: TestUploads.link(app, 'upload-1') })}\n`);
});
