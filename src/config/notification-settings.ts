import ipaddr from 'ipaddr.js';

type Env = Record<string, string | undefined>;

/** A network as the operator wrote it in NOTIFICATION_ALLOWED_NETWORKS, parsed. */
export type AllowedNetwork = [ipaddr.IPv4 | ipaddr.IPv6, number];

/** How notifications leave Plinth: where they may go, how long a send may take, how retries go. */
export interface NotificationSettings {
  /** Networks outbound deliveries may reach although they are not public (empty by default). */
  allowedNetworks: AllowedNetwork[];
  /** The longest one delivery (connect, send, read the answer) may take. */
  timeoutMs: number;
  /** Attempts per delivery, the first included; a 429, a 5xx or a network failure is retried. */
  maxAttempts: number;
  /** The first retry waits about this long; each next one twice as long, with jitter, up to the cap. */
  retryBaseMs: number;
  retryMaxMs: number;
  /** Deliveries one process sends at the same time. */
  concurrency: number;
  /** How often each process looks for due deliveries. */
  pollMs: number;
  /** The mail server of email destinations (`smtp://`, `smtps://`); none: email is not sent. */
  smtpUrl?: string;
  /** The sender of notification mail. */
  mailFrom: string;
}

/** A notification setting that cannot work; AppConfig turns it into a ConfigError. */
export class NotificationSettingError extends Error {}

function int(env: Env, name: string, fallback: number, min: number, max: number): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  const n = Number(raw);
  if (!/^\d+$/.test(raw) || n < min || n > max) {
    throw new NotificationSettingError(
      `${name} must be a whole number between ${min} and ${max}, got "${raw}"`,
    );
  }
  return n;
}

/** `10.0.0.0/8, 192.168.1.7/32, fd00::/8`: a bare address means that address alone. */
export function parseAllowedNetworks(raw: string | undefined): AllowedNetwork[] {
  return (raw ?? '')
    .split(',')
    .map((part) => part.trim())
    .filter((part) => part !== '')
    .map((part) => {
      try {
        if (part.includes('/')) return ipaddr.parseCIDR(part);
        const address = ipaddr.parse(part);
        return [address, address.kind() === 'ipv4' ? 32 : 128] as AllowedNetwork;
      } catch {
        throw new NotificationSettingError(
          `NOTIFICATION_ALLOWED_NETWORKS must be a comma-separated list of CIDRs, got "${part}"`,
        );
      }
    });
}

function smtpUrl(raw: string | undefined): string | undefined {
  if (!raw) return undefined;
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new NotificationSettingError('SMTP_URL must be an smtp:// or smtps:// URL');
  }
  if (url.protocol !== 'smtp:' && url.protocol !== 'smtps:') {
    throw new NotificationSettingError('SMTP_URL must be an smtp:// or smtps:// URL');
  }
  return raw;
}

export function notificationSettings(env: Env): NotificationSettings {
  const retryBaseMs = int(env, 'NOTIFICATION_RETRY_BASE_MS', 10_000, 1, 3_600_000);
  return {
    allowedNetworks: parseAllowedNetworks(env.NOTIFICATION_ALLOWED_NETWORKS),
    timeoutMs: int(env, 'NOTIFICATION_TIMEOUT_MS', 10_000, 100, 120_000),
    maxAttempts: int(env, 'NOTIFICATION_MAX_ATTEMPTS', 8, 1, 100),
    retryBaseMs,
    retryMaxMs: Math.max(retryBaseMs, int(env, 'NOTIFICATION_RETRY_MAX_MS', 3_600_000, 1, 86_400_000)),
    concurrency: int(env, 'NOTIFICATION_CONCURRENCY', 8, 1, 1000),
    pollMs: int(env, 'NOTIFICATION_POLL_MS', 1000, 10, 600_000),
    smtpUrl: smtpUrl(env.SMTP_URL),
    mailFrom: env.NOTIFICATION_MAIL_FROM || 'plinth@localhost',
  };
}
