import type { JobPayload } from '../runs/protocol/agent-protocol.types';

/** Node's names for the machine's architecture, as the tool's release builds name them. */
const TOOL_ARCH: Record<string, string> = { x64: 'amd64', ia32: '386', arm64: 'arm64', arm: 'arm' };

/** `linux_amd64`, `darwin_arm64`: the platform line of the tool's banner. */
export function toolPlatform(platform: string = process.platform, arch: string = process.arch): string {
  return `${platform}_${TOOL_ARCH[arch] ?? arch}`;
}

/**
 * The three lines the real service starts an apply log with (the tool's version, its platform,
 * then `Initializing plugins and modules...`). The CLI drops the first three lines of an apply
 * log, taking them for that banner, so without it the apply's own first lines would be lost.
 * `toolVersion`: the executor's `--tool-version`; a plan-only run's `terraform-version` wins.
 */
export function applyLogHeader(
  job: Pick<JobPayload, 'terraform-version'>,
  toolVersion?: string,
  platform = toolPlatform(),
): string {
  const version = job['terraform-version'] ?? toolVersion;
  const first = version ? `Terraform v${version.replace(/^v/, '')}` : 'Terraform (version not configured)';
  return `${first}\non ${platform}\nInitializing plugins and modules...\n`;
}
