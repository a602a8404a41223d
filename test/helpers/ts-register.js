/*
 * Runs TypeScript sources in the processes the e2e suites start (`node -r <this file> src/main.ts`):
 * each file is transpiled on its own as ts-node's transpile-only mode does (type checking is
 * `npm run check`'s job), and the JavaScript is kept under node_modules/.cache by a hash of the
 * source, the compiler's version and the compiler options. So only the first process of a run
 * transpiles the application (about 12 s of CPU on the CI machine); the others, cluster workers
 * included, start from the cache as fast as from a build.
 */
'use strict';
const { createHash } = require('node:crypto');
const { mkdirSync, readFileSync, renameSync, writeFileSync } = require('node:fs');
const { dirname, join } = require('node:path');

const ROOT = join(__dirname, '..', '..');
const CACHE = join(ROOT, 'node_modules', '.cache', 'plinth-e2e-ts');
const TSCONFIG = join(ROOT, 'tsconfig.json');

/** The compiler and its options, loaded on the first file the cache does not hold. */
let compiler;
function typescript() {
  if (!compiler) {
    const ts = require('typescript');
    const read = ts.readConfigFile(TSCONFIG, ts.sys.readFile);
    if (read.error) throw new Error(ts.flattenDiagnosticMessageText(read.error.messageText, '\n'));
    const { options } = ts.parseJsonConfigFileContent(read.config, ts.sys, dirname(TSCONFIG));
    compiler = {
      ts,
      options: {
        ...options,
        module: ts.ModuleKind.CommonJS,
        sourceMap: false,
        inlineSourceMap: true,
        inlineSources: false,
        declaration: false,
        incremental: false,
        noEmit: false,
      },
    };
  }
  return compiler;
}

/** What a cached file depends on besides its source: the compiler's version and its options. */
const SALT = createHash('sha256')
  .update(require('typescript/package.json').version)
  .update(readFileSync(TSCONFIG))
  .digest('hex');

function transpile(source, filename) {
  const key = createHash('sha256').update(SALT).update(filename).update(source).digest('hex');
  const cached = join(CACHE, `${key}.js`);
  try {
    return readFileSync(cached, 'utf8');
  } catch {
    // not transpiled yet
  }
  const { ts, options } = typescript();
  const out = ts.transpileModule(source, { compilerOptions: options, fileName: filename }).outputText;
  mkdirSync(CACHE, { recursive: true });
  // Written whole, then renamed: another process never reads half a file.
  const partial = `${cached}.${process.pid}`;
  writeFileSync(partial, out);
  renameSync(partial, cached);
  return out;
}

process.setSourceMapsEnabled(true);
require.extensions['.ts'] = (module, filename) => {
  module._compile(transpile(readFileSync(filename, 'utf8'), filename), filename);
};
