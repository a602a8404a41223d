import type { Request } from 'express';

/**
 * The externally visible origin of the API: `BASE_URL` when the operator set it (behind a proxy),
 * else what the request itself says.
 */
export function requestOrigin(req: Request, configured?: string): string {
  if (configured) return configured.replace(/\/+$/, '');
  return `${req.protocol}://${req.get('host') ?? 'localhost'}`;
}
