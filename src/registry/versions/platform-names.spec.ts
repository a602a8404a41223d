import { isPlatformArch, isPlatformOs } from './platform-names';

describe('platform names', () => {
  it.each(['linux', 'darwin', 'windows', 'freebsd', 'openbsd', 'solaris'])('accept the GOOS %s', (os) => {
    expect(isPlatformOs(os)).toBe(true);
  });

  it.each(['amd64', 'arm64', 'arm', '386', 's390x'])('accept the GOARCH %s', (arch) => {
    expect(isPlatformArch(arch)).toBe(true);
  });

  it.each(['foo', 'Linux', 'LINUX', 'macos', 'win32', '', ' linux', 'amd64'])('refuse %p as an os', (os) => {
    expect(isPlatformOs(os)).toBe(false);
  });

  it.each(['scrimbles', 'x86_64', 'AMD64', 'aarch64', 'i386', '', 'linux'])(
    'refuse %p as an arch',
    (arch) => {
      expect(isPlatformArch(arch)).toBe(false);
    },
  );
});
