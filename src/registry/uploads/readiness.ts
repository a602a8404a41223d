import { SignatureState } from '../entities/registry-provider-version.entity';

export interface ReadinessInput {
  shasumsUploaded: boolean;
  shasumsSigUploaded: boolean;
  signatureState: SignatureState;
  platforms: readonly {
    id: string;
    filename: string;
    shasum: string;
    providerBinaryUploaded: boolean;
  }[];
  /** The version's SHA256SUMS lines (filename → lower-case hex) for the platforms' filenames. */
  checksums: ReadonlyMap<string, string>;
}

export interface Readiness {
  readyPlatformIds: Set<string>;
  usable: boolean;
}

/**
 * The consumer-protection rule in one place. A platform is ready when its binary is uploaded
 * (the upload already proved it hashes to `shasum`) and SHA256SUMS lists its filename with that
 * same checksum. A version is usable when both files are uploaded, the signature is not known to
 * be bad, and at least one platform is ready.
 */
export function computeReadiness(input: ReadinessInput): Readiness {
  const readyPlatformIds = new Set<string>();
  if (input.shasumsUploaded) {
    for (const p of input.platforms) {
      if (p.providerBinaryUploaded && input.checksums.get(p.filename) === p.shasum.toLowerCase()) {
        readyPlatformIds.add(p.id);
      }
    }
  }
  const usable =
    input.shasumsUploaded &&
    input.shasumsSigUploaded &&
    input.signatureState !== 'invalid' &&
    readyPlatformIds.size > 0;
  return { readyPlatformIds, usable };
}
