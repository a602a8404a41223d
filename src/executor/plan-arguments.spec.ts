import { applyLogHeader, toolPlatform } from './apply-log-header';
import { droppedArguments, planArguments } from './plan-arguments';

const plain = {
  'is-destroy': false,
  refresh: true,
  'refresh-only': false,
  'target-addrs': [] as string[],
  'replace-addrs': [] as string[],
};

describe('the planning flags of a job', () => {
  it('gives a plain run none', () => {
    expect(planArguments(plain)).toEqual([]);
  });

  it('gives one flag per option and per address, in the tool’s syntax', () => {
    expect(
      planArguments({
        ...plain,
        'is-destroy': true,
        refresh: false,
        'target-addrs': ['aws_instance.web', 'aws_instance.by_key["a b"]'],
        'replace-addrs': ['module.net.aws_subnet.a[0]'],
      }),
    ).toEqual([
      '-destroy',
      '-refresh=false',
      '-target=aws_instance.web',
      '-target=aws_instance.by_key["a b"]',
      '-replace=module.net.aws_subnet.a[0]',
    ]);
    expect(planArguments({ ...plain, 'refresh-only': true })).toEqual(['-refresh-only']);
  });

  it('finds the flags a plan command would drop', () => {
    const flags = ['-destroy', '-target=a.b'];
    expect(droppedArguments('terraform plan -out=x "$@"', flags)).toEqual([]);
    expect(droppedArguments('terraform plan $*', flags)).toEqual([]);
    expect(droppedArguments('terraform plan -out=x', flags)).toEqual(flags);
    // The form earlier releases documented passes -destroy on by itself.
    const older = 'terraform plan $([ "$PLINTH_IS_DESTROY" = true ] && echo -destroy)';
    expect(droppedArguments(older, ['-destroy'])).toEqual([]);
    expect(droppedArguments(older, flags)).toEqual(['-target=a.b']);
  });
});

describe('the apply log header', () => {
  it('is the three lines of the tool’s banner that the CLI skips', () => {
    expect(applyLogHeader({ 'terraform-version': null }, '1.9.5', 'linux_amd64')).toBe(
      'Terraform v1.9.5\non linux_amd64\nInitializing plugins and modules...\n',
    );
    expect(applyLogHeader({ 'terraform-version': '1.10.0' }, 'v1.9.5', 'linux_amd64').split('\n')[0]).toBe(
      'Terraform v1.10.0',
    );
    expect(applyLogHeader({ 'terraform-version': null }, undefined, 'linux_amd64').split('\n')).toHaveLength(
      4,
    );
  });

  it('names the platform as the tool’s builds do', () => {
    expect(toolPlatform('linux', 'x64')).toBe('linux_amd64');
    expect(toolPlatform('darwin', 'arm64')).toBe('darwin_arm64');
  });
});
