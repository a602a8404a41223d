import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';
import { promisify } from 'node:util';
import { Actor, bootstrapAdmin, createOrganization, createUser } from '../helpers/fixtures';
import { startApp, TestApp } from '../helpers/test-app';
import { createModule, createModuleVersion, moduleArchive, moduleBase } from './module-helpers';
import { put } from './registry-helpers';

const run = promisify(execFile);

/** A module that needs no provider, so `init` has nothing to fetch from the internet. */
const FILES = {
  'main.tf': 'variable "name" {\n  type = string\n}\n',
  'outputs.tf.json': '{"output":{"greeting":{"value":"hello"}}}\n',
  'README.md': '# network\n',
  'modules/child/main.tf': 'output "x" {\n  value = 1\n}\n',
};

/** The infrastructure tool, when the machine has it (TERRAFORM_PATH, else `terraform` on PATH). */
function findTool(): string | undefined {
  if (process.env.TERRAFORM_PATH)
    return existsSync(process.env.TERRAFORM_PATH) ? process.env.TERRAFORM_PATH : undefined;
  return (process.env.PATH ?? '')
    .split(delimiter)
    .map((dir) => join(dir, 'terraform'))
    .find((file) => existsSync(file));
}

const TOOL = findTool();
if (!TOOL) {
  console.warn(
    'Skipping the module test with the real tool: no `terraform` on PATH (or set TERRAFORM_PATH).',
  );
}

/**
 * The real tool against Plinth: `terraform init` resolves a version constraint through the
 * module protocol, follows X-Terraform-Get and unpacks the archive. Its CLI configuration points
 * a made-up host's `modules.v1` at the test server (discovery itself needs HTTPS) and carries the
 * member's token; the module needs no provider, so nothing leaves the machine.
 */
(TOOL ? describe : describe.skip)('registry modules with the real tool (terraform init)', () => {
  let t: TestApp;
  let owner: Actor;
  let org: string;
  let dir: string;

  beforeAll(async () => {
    t = await startApp();
    const admin = await bootstrapAdmin(t);
    owner = await createUser(t, admin);
    org = await createOrganization(owner);
    dir = mkdtempSync(join(tmpdir(), 'plinth-tf-'));
  });
  afterAll(async () => {
    rmSync(dir, { recursive: true, force: true });
    await t.close();
  });

  it('installs the newest version matching the constraint, with the uploaded files', async () => {
    const base = moduleBase(org, 'network', 'aws');
    await createModule(owner, org, 'network', 'aws');
    for (const [version, files] of [
      ['1.2.0', { 'main.tf': 'variable "name" {}\n' }],
      ['1.3.0', FILES],
      ['2.0.0', { 'main.tf': 'variable "renamed" {}\n' }],
    ] as const) {
      const v = await createModuleVersion(owner, base, version);
      await put(v.upload, moduleArchive(files)).expect(200);
    }
    const refused = await createModuleVersion(owner, base, '1.4.0');
    await put(refused.upload, Buffer.from('broken')).expect(422);

    writeFileSync(
      join(dir, 'tool.rc'),
      `host "plinth.test" {\n  services = {\n    "modules.v1" = "${t.origin}/api/registry/v1/modules/"\n  }\n}\n` +
        `credentials "plinth.test" {\n  token = "${owner.token}"\n}\n`,
    );
    writeFileSync(
      join(dir, 'main.tf'),
      `module "net" {\n  source  = "plinth.test/${org}/network/aws"\n  version = "~> 1.2"\n  name    = "x"\n}\n`,
    );
    const { stdout } = await run(TOOL!, ['init', '-input=false', '-no-color', '-backend=false'], {
      cwd: dir,
      env: {
        ...process.env,
        TF_CLI_CONFIG_FILE: join(dir, 'tool.rc'),
        TF_IN_AUTOMATION: '1',
        CHECKPOINT_DISABLE: '1',
      },
      timeout: 120_000,
    });
    expect(stdout).toContain(`Downloading plinth.test/${org}/network/aws 1.3.0 for net...`);
    const installed = JSON.parse(readFileSync(join(dir, '.terraform/modules/modules.json'), 'utf8')) as {
      Modules: { Key: string; Version?: string; Dir: string }[];
    };
    expect(installed.Modules.find((m) => m.Key === 'net')).toMatchObject({ Version: '1.3.0' });
    const files = Object.fromEntries(
      Object.keys(FILES).map((path) => [
        path,
        readFileSync(join(dir, '.terraform/modules/net', path), 'utf8'),
      ]),
    );
    expect(files).toEqual(FILES);
  }, 180_000);
});
