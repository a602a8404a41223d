// `npm start` runs this first: it compiles the server only when the sources changed since the last
// build, so a start on an unchanged checkout goes straight to `node dist/main.js`.
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

const root = join(import.meta.dirname, '..');
const stamp = join(root, 'dist', '.build-stamp');
const inputs = ['src', 'tsconfig.json', 'tsconfig.build.json', 'nest-cli.json', 'package-lock.json'];

/** The newest modification time under a file or folder, in milliseconds. */
function newest(path) {
  const stat = statSync(path);
  if (!stat.isDirectory()) return stat.mtimeMs;
  let max = stat.mtimeMs;
  for (const entry of readdirSync(path)) max = Math.max(max, newest(join(path, entry)));
  return max;
}

const sourcesChanged = () => {
  if (!existsSync(stamp) || !existsSync(join(root, 'dist', 'main.js'))) return true;
  const built = statSync(stamp).mtimeMs;
  return inputs.some((input) => existsSync(join(root, input)) && newest(join(root, input)) > built);
};

if (sourcesChanged()) {
  const started = Date.now();
  const build = spawnSync('npx', ['nest', 'build'], { cwd: root, stdio: 'inherit' });
  if (build.status !== 0) process.exit(build.status ?? 1);
  // Stamped with the time the build began, so an edit made during the build still counts as newer.
  writeFileSync(stamp, '');
  utimesSync(stamp, started / 1000, started / 1000);
}
