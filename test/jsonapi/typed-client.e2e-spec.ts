import { copyFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { execFileSync } from 'node:child_process';
import request from 'supertest';
import * as ts from 'typescript';
import { Actor, bootstrapAdmin, createUser, unique } from '../helpers/fixtures';
import { startApp, TestApp } from '../helpers/test-app';

/**
 * A typed client generated from /docs-json with openapi-typescript: the script next to this
 * file (typed-client/script.ts) type-checks against it under `strict` (its `@ts-expect-error`
 * lines must stay errors), then runs against the server.
 */
describe('a client generated from the OpenAPI document', () => {
  let t: TestApp;
  let owner: Actor;
  let dir: string;

  beforeAll(async () => {
    t = await startApp();
    const admin = await bootstrapAdmin(t);
    owner = await createUser(t, admin);
    dir = mkdtempSync(join(tmpdir(), 'plinth-typed-client-'));
    const doc = (await request(t.origin).get('/docs-json').expect(200)).text;
    writeFileSync(join(dir, 'openapi.json'), doc);
    // The generator's own command line (it is an ES module, which jest's module loader cannot load).
    const cli = join(__dirname, '..', '..', 'node_modules', 'openapi-typescript', 'bin', 'cli.js');
    execFileSync(process.execPath, [cli, join(dir, 'openapi.json'), '-o', join(dir, 'plinth-api.ts')], {
      stdio: 'pipe',
    });
    copyFileSync(join(__dirname, 'typed-client', 'script.ts'), join(dir, 'script.ts'));
  });
  afterAll(async () => {
    rmSync(dir, { recursive: true, force: true });
    await t.close();
  });

  it('type-checks the script under strict', () => {
    const program = ts.createProgram([join(dir, 'script.ts')], {
      strict: true,
      noEmit: true,
      target: ts.ScriptTarget.ES2022,
      module: ts.ModuleKind.CommonJS,
      lib: ['lib.es2022.d.ts'],
      types: ['node'],
      typeRoots: [join(__dirname, '..', '..', 'node_modules', '@types')],
      skipLibCheck: true,
    });
    const problems = ts.getPreEmitDiagnostics(program).map((d) => {
      const where = d.file
        ? `${d.file.fileName.slice(dir.length + 1)}:${d.file.getLineAndCharacterOfPosition(d.start ?? 0).line + 1}`
        : '';
      return `${where} ${ts.flattenDiagnosticMessageText(d.messageText, '\n')}`;
    });
    expect(problems).toEqual([]);
  }, 120_000);

  it('creates an organization, a workspace and a policy set and reads them back with include', async () => {
    const source = ts.transpileModule(readFileSync(join(dir, 'script.ts'), 'utf8'), {
      compilerOptions: { module: ts.ModuleKind.CommonJS, target: ts.ScriptTarget.ES2022 },
    }).outputText;
    writeFileSync(join(dir, 'script.js'), source);
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const script = require(join(dir, 'script.js')) as {
      run(base: string, token: string, name: string): Promise<unknown>;
    };
    const name = unique('typed');
    expect(await script.run(t.origin, owner.token, name)).toEqual({
      organization: name,
      workspaceName: 'typed-ws',
      policySetName: 'typed-set',
      includedWorkspaceNames: ['typed-ws'],
      listedNames: ['typed-ws'],
    });
  });
});
