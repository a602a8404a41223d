import { ArchiveEntry } from '../../storage/archive-inspector';
import { isConfigurationFile, moduleArchiveProblem } from './module-archive';

const file = (path: string): ArchiveEntry => ({ path, type: 'file', size: 1 });
const dir = (path: string): ArchiveEntry => ({ path, type: 'directory', size: 0 });

describe('module archive rule', () => {
  it('accepts a .tf or .tf.json file at the root, written with or without ./', () => {
    expect(moduleArchiveProblem([file('main.tf')])).toBeNull();
    expect(moduleArchiveProblem([dir('./'), file('./variables.tf.json')])).toBeNull();
    expect(moduleArchiveProblem([file('README.md'), dir('modules/'), file('./outputs.tf')])).toBeNull();
  });

  it('refuses an archive whose configuration sits only in a subdirectory', () => {
    expect(moduleArchiveProblem([dir('module/'), file('module/main.tf')])).toBe(
      'the archive has no .tf or .tf.json file at its root',
    );
  });

  it('refuses an archive without configuration files, or with only a directory named like one', () => {
    expect(moduleArchiveProblem([file('README.md')])).not.toBeNull();
    expect(moduleArchiveProblem([dir('main.tf/')])).not.toBeNull();
    expect(moduleArchiveProblem([])).not.toBeNull();
  });

  it('reads file names the way the tool does', () => {
    expect(isConfigurationFile('main.tf')).toBe(true);
    expect(isConfigurationFile('main.tf.json')).toBe(true);
    expect(isConfigurationFile('main.tfvars')).toBe(false);
    expect(isConfigurationFile('main.tf.bak')).toBe(false);
    expect(isConfigurationFile('.hidden.tf')).toBe(false);
  });
});
