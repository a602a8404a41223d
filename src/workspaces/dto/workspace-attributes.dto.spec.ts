import { DomainError } from '../../common/errors/domain-error';
import { requestedEngineVersion } from './workspace-attributes.dto';

describe('the engine version a workspace body pins', () => {
  it('comes from engine-version, or from the real service name terraform-version', () => {
    expect(requestedEngineVersion({ 'engine-version': '1.9.2' })).toEqual({
      version: '1.9.2',
      attribute: 'engine-version',
    });
    expect(requestedEngineVersion({ 'terraform-version': '1.9.2' })).toEqual({
      version: '1.9.2',
      attribute: 'terraform-version',
    });
    expect(requestedEngineVersion({})).toBeUndefined();
  });

  it('accepts both when they agree and refuses them when they do not', () => {
    expect(
      requestedEngineVersion({ 'engine-version': '1.9.2', 'terraform-version': '1.9.2' })?.attribute,
    ).toBe('engine-version');
    try {
      requestedEngineVersion({ 'engine-version': 'latest', 'terraform-version': '1.9.2' });
      throw new Error('expected a refusal');
    } catch (err) {
      expect((err as DomainError).items).toEqual([
        {
          detail: 'Terraform version must equal engine-version when both are given',
          pointer: '/data/attributes/terraform-version',
        },
      ]);
    }
  });
});
