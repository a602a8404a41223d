import { checkRunVariables, sensitiveRunKeys } from './run-variable-rules';

describe('sensitiveRunKeys', () => {
  it('names the keys of sensitive terraform variables and of sensitive TF_VAR_ env variables', () => {
    const keys = sensitiveRunKeys([
      { key: 'db_password', category: 'terraform', sensitive: true },
      { key: 'region', category: 'terraform', sensitive: false },
      { key: 'TF_VAR_api_token', category: 'env', sensitive: true },
      { key: 'TF_VAR_plain', category: 'env', sensitive: false },
      { key: 'AWS_SECRET_ACCESS_KEY', category: 'env', sensitive: true },
      { key: 'TF_VAR_', category: 'env', sensitive: true },
    ]);
    expect([...keys].sort()).toEqual(['api_token', 'db_password']);
  });

  it('is empty when nothing sensitive reaches the workspace', () => {
    expect(sensitiveRunKeys([{ key: 'a', category: 'terraform', sensitive: false }]).size).toBe(0);
  });
});

describe('checkRunVariables', () => {
  it('keeps a valid list as given', () => {
    expect(checkRunVariables([{ key: 'a', value: '1' }])).toEqual([{ key: 'a', value: '1' }]);
  });
});
