/**
 * The operating systems and architectures a platform may name: Go's GOOS and GOARCH values
 * (`go tool dist list`, Go 1.22), which is what provider builds are named after. The public
 * registry uses the same names (linux, darwin, windows, freebsd × amd64, arm64, arm, 386, …).
 */
export const PLATFORM_OS = [
  'aix',
  'android',
  'darwin',
  'dragonfly',
  'freebsd',
  'illumos',
  'ios',
  'js',
  'linux',
  'netbsd',
  'openbsd',
  'plan9',
  'solaris',
  'wasip1',
  'windows',
] as const;

export const PLATFORM_ARCH = [
  '386',
  'amd64',
  'arm',
  'arm64',
  'loong64',
  'mips',
  'mips64',
  'mips64le',
  'mipsle',
  'ppc64',
  'ppc64le',
  'riscv64',
  's390x',
  'wasm',
] as const;

export function isPlatformOs(value: string): boolean {
  return (PLATFORM_OS as readonly string[]).includes(value);
}

export function isPlatformArch(value: string): boolean {
  return (PLATFORM_ARCH as readonly string[]).includes(value);
}
