import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { tarGz } from '../helpers/tarball';

/**
 * A stand-in for the infrastructure tool. `plan` reads the changes the configuration asks for
 * (`changes.json`: one action list per resource) and saves them as the plan file; `show` turns the
 * saved plan into plan JSON; `apply` reads the saved plan it was given and prints the tool's
 * closing summary. So the counts Plinth shows can only come from the configuration it served,
 * through the plan file it stored between the two jobs. Like the real tool's local backend, `plan`
 * reads `terraform.tfstate` in the working directory (the saved plan remembers its serial and
 * lineage, and `apply` refuses a plan made from another state), and `apply` writes it: serial + 1,
 * the same lineage (a new one for the first state), one `null_resource` per creation, an output
 * counting them. `plan` and `apply` print the inputs they were given: the generated
 * `plinth.auto.tfvars` (its lines joined by ` | `) and every `ECHO_*` environment variable. `plan`
 * takes the tool's planning flags after the step (`plan "$@"`) and prints them as a JSON array
 * (`flags: [...]`) when there are any; it acts on `-target=null_resource.rN` (only those resources
 * change), `-destroy` (every resource of the state is deleted) and `-refresh-only` (nothing
 * changes), as the real tool would. `linger MARKS` is a plan that takes a
 * minute: it writes MARKS.started once running, and MARKS.signalled when it is sent SIGTERM.
 * `chatter MARKS` prints slowly: five lines, then (once MARKS.go exists) a character split across
 * two writes a moment apart and more lines, each with characters of two to four bytes.
 */
const TOOL = `
const fs = require('node:fs');
const [step, marks] = process.argv.slice(2);
const planFile = process.env.PLINTH_PLAN_FILE;
const readState = () =>
  fs.existsSync('terraform.tfstate') ? JSON.parse(fs.readFileSync('terraform.tfstate', 'utf8')) : null;
// The inputs it was given, as the real tool would use them: the generated tfvars, ECHO_* env variables.
const echoInputs = () => {
  if (fs.existsSync('plinth.auto.tfvars')) console.log('tfvars: ' + fs.readFileSync('plinth.auto.tfvars', 'utf8').trim().split('\\n').join(' | '));
  for (const k of Object.keys(process.env).filter((k) => k.startsWith('ECHO_')).sort()) console.log('env ' + k + '=' + process.env[k]);
};
if (step === 'plan') {
  const flags = process.argv.slice(3);
  const prior = readState();
  let actions = JSON.parse(fs.readFileSync('changes.json', 'utf8'));
  const targets = flags.filter((f) => f.startsWith('-target=')).map((f) => f.slice('-target='.length));
  if (targets.length) actions = actions.map((a, i) => (targets.includes('null_resource.r' + i) ? a : ['no-op'])).filter((a) => a[0] !== 'no-op');
  if (flags.includes('-destroy')) actions = ((prior && prior.resources) || []).map(() => ['delete']);
  if (flags.includes('-refresh-only')) actions = [];
  echoInputs();
  if (flags.length) console.log('flags: ' + JSON.stringify(flags));
  console.log('Planning ' + process.env.PLINTH_WORKSPACE_NAME + ' for run ' + process.env.PLINTH_RUN_ID);
  console.log(prior ? 'Refreshed state serial ' + prior.serial + ' of ' + prior.lineage : 'No state yet');
  fs.writeFileSync(planFile, JSON.stringify({ saved: true, actions, prior: prior && { serial: prior.serial, lineage: prior.lineage } }));
} else if (step === 'show') {
  const plan = JSON.parse(fs.readFileSync(planFile, 'utf8'));
  const resource_changes = plan.actions.map((a, i) => ({ address: 'null_resource.r' + i, change: { actions: a } }));
  fs.writeFileSync(process.env.PLINTH_PLAN_JSON, JSON.stringify({ format_version: '1.2', resource_changes }));
} else if (step === 'apply') {
  const plan = JSON.parse(fs.readFileSync(planFile, 'utf8'));
  const prior = readState();
  echoInputs();
  // As the real tool does: a saved plan only applies to the state it was made from.
  if (JSON.stringify(plan.prior) !== JSON.stringify(prior && { serial: prior.serial, lineage: prior.lineage })) {
    console.error('Error: Saved plan is stale');
    process.exit(1);
  }
  const state = prior || {
    version: 4,
    terraform_version: '1.9.5',
    serial: 0,
    lineage: require('node:crypto').randomUUID(),
    outputs: {},
    resources: [],
    check_results: null,
  };
  // fail-apply in the configuration: the first change is made (and written), then the apply fails.
  const failing = fs.existsSync('fail-apply');
  const made = failing ? plan.actions.slice(0, 1) : plan.actions;
  for (const a of made) {
    if (a.includes('create') && !a.includes('delete')) {
      state.resources.push({
        mode: 'managed',
        type: 'null_resource',
        name: 'r' + state.resources.length,
        provider: 'provider["registry.terraform.io/hashicorp/null"]',
        instances: [{ schema_version: 0, attributes: { id: process.env.PLINTH_RUN_ID + '-' + state.resources.length } }],
      });
    } else if (a.includes('delete') && !a.includes('create')) {
      state.resources.pop();
    }
  }
  state.serial += 1;
  state.outputs = { resources: { value: state.resources.length, type: 'number' } };
  fs.writeFileSync('terraform.tfstate', JSON.stringify(state, null, 2) + '\\n');
  if (failing) {
    console.error('Error: creating null_resource.r' + state.resources.length + ': the stand-in failed half-way');
    process.exit(1);
  }
  const count = (name) => plan.actions.filter((a) => a.includes(name)).length;
  console.log('Apply complete! Resources: ' + count('create') + ' added, ' + count('update') + ' changed, ' + count('delete') + ' destroyed.');
} else if (step === 'linger') {
  process.on('SIGTERM', () => {
    fs.writeFileSync(marks + '.signalled', 'SIGTERM');
    process.exit(143);
  });
  console.log('Lingering for run ' + process.env.PLINTH_RUN_ID);
  fs.writeFileSync(marks + '.started', String(process.pid));
  setTimeout(() => console.log('Lingered to the end'), 60000);
} else if (step === 'chatter') {
  const write = (text) => new Promise((resolve) => process.stdout.write(text, resolve));
  const pause = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
  (async () => {
    for (let i = 1; i <= 5; i++) {
      await write('chatter ' + i + ': café ✓ 😀\\n');
      await pause(50);
    }
    for (let i = 0; i < 400 && !fs.existsSync(marks + '.go'); i++) await pause(50);
    if (!fs.existsSync(marks + '.go')) process.exit(3);
    const split = Buffer.from('naïve\\n');
    await write(split.subarray(0, 3));
    await pause(600);
    await write(split.subarray(3));
    for (let i = 6; i <= 12; i++) {
      await write('chatter ' + i + ': ünïcödé ✓ 𝄞\\n');
      await pause(80);
    }
  })();
} else {
  console.error('unknown step ' + step);
  process.exit(2);
}
`;

/** Writes the tool into `dir`; returns the command that runs it (append the step). */
export function installTool(dir: string): string {
  writeFileSync(join(dir, 'tool.js'), TOOL);
  return `"${process.execPath}" "${join(dir, 'tool.js')}"`;
}

/**
 * A configuration asking for the given changes, one action list per resource. `failApply`: its
 * apply makes the first change, writes the state, then fails.
 */
export const configuration = (changes: string[][], options: { failApply?: boolean } = {}): Buffer =>
  tarGz([
    { path: 'main.tf', body: 'resource "null_resource" "r" {}\n' },
    { path: 'changes.json', body: JSON.stringify(changes) },
    ...(options.failApply ? [{ path: 'fail-apply', body: 'yes\n' }] : []),
  ]);
