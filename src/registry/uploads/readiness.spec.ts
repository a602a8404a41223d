import { computeReadiness, ReadinessInput } from './readiness';

const SHA = 'ab'.repeat(32);
const platform = (over: Partial<ReadinessInput['platforms'][number]> = {}) => ({
  id: 'provpltfrm-1',
  filename: 'p_linux_amd64.zip',
  shasum: SHA,
  providerBinaryUploaded: true,
  ...over,
});
const complete = (over: Partial<ReadinessInput> = {}): ReadinessInput => ({
  shasumsUploaded: true,
  shasumsSigUploaded: true,
  signatureState: 'valid',
  platforms: [platform()],
  checksums: new Map([['p_linux_amd64.zip', SHA]]),
  ...over,
});

describe('computeReadiness', () => {
  it('makes a complete version usable with its platform ready', () => {
    expect(computeReadiness(complete())).toEqual({
      readyPlatformIds: new Set(['provpltfrm-1']),
      usable: true,
    });
  });

  it('accepts a signature that could not be checked because the key is not stored', () => {
    expect(computeReadiness(complete({ signatureState: 'unverified' })).usable).toBe(true);
  });

  it('compares the declared shasum case-insensitively', () => {
    const input = complete({ platforms: [platform({ shasum: SHA.toUpperCase() })] });
    expect(computeReadiness(input).usable).toBe(true);
  });

  it.each<[string, Partial<ReadinessInput>]>([
    ['SHA256SUMS is missing', { shasumsUploaded: false }],
    ['the signature is missing', { shasumsSigUploaded: false }],
    ['the signature is invalid', { signatureState: 'invalid' }],
    ['no platform exists', { platforms: [] }],
    ['the binary is not uploaded', { platforms: [platform({ providerBinaryUploaded: false })] }],
    ['SHA256SUMS does not list the binary', { checksums: new Map() }],
    ['SHA256SUMS lists another checksum', { checksums: new Map([['p_linux_amd64.zip', 'cd'.repeat(32)]]) }],
  ])('keeps the version unusable when %s', (_, over) => {
    expect(computeReadiness(complete(over)).usable).toBe(false);
  });

  it('marks only the platforms that pass as ready', () => {
    const input = complete({
      platforms: [platform(), platform({ id: 'provpltfrm-2', filename: 'p_darwin_arm64.zip' })],
    });
    expect(computeReadiness(input)).toEqual({ readyPlatformIds: new Set(['provpltfrm-1']), usable: true });
  });

  it('readies no platform before SHA256SUMS arrives', () => {
    expect(computeReadiness(complete({ shasumsUploaded: false })).readyPlatformIds.size).toBe(0);
  });
});
