import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { tarGz } from '../helpers/tarball';

/**
 * A stand-in for the infrastructure tool. `plan` reads the changes the configuration asks for
 * (`changes.json`: one action list per resource) and saves them as the plan file; `show` turns the
 * saved plan into plan JSON; `apply` reads the saved plan it was given and prints the tool's
 * closing summary. So the counts Plinth shows can only come from the configuration it served,
 * through the plan file it stored between the two jobs. `linger MARKS` is a plan that takes a
 * minute: it writes MARKS.started once running, and MARKS.signalled when it is sent SIGTERM.
 */
const TOOL = `
const fs = require('node:fs');
const [step, marks] = process.argv.slice(2);
const planFile = process.env.PLINTH_PLAN_FILE;
if (step === 'plan') {
  const actions = JSON.parse(fs.readFileSync('changes.json', 'utf8'));
  console.log('Planning ' + process.env.PLINTH_WORKSPACE_NAME + ' for run ' + process.env.PLINTH_RUN_ID);
  fs.writeFileSync(planFile, JSON.stringify({ saved: true, actions }));
} else if (step === 'show') {
  const plan = JSON.parse(fs.readFileSync(planFile, 'utf8'));
  const resource_changes = plan.actions.map((a, i) => ({ address: 'null_resource.r' + i, change: { actions: a } }));
  fs.writeFileSync(process.env.PLINTH_PLAN_JSON, JSON.stringify({ format_version: '1.2', resource_changes }));
} else if (step === 'apply') {
  const plan = JSON.parse(fs.readFileSync(planFile, 'utf8'));
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

/** A configuration asking for the given changes, one action list per resource. */
export const configuration = (changes: string[][]): Buffer =>
  tarGz([
    { path: 'main.tf', body: 'resource "null_resource" "r" {}\n' },
    { path: 'changes.json', body: JSON.stringify(changes) },
  ]);
