import { randomBytes } from 'node:crypto';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { isAbsolute, join, resolve } from 'node:path';
import { ensurePrivateDir, PRIVATE_FILE_MODE } from '../common/private-files';
import {
  DatabaseDialect,
  DatabaseSettingError,
  databaseSettings,
  DatabaseSettings,
  MysqlConnection,
} from './database-settings';
import { NotificationSettingError, NotificationSettings, notificationSettings } from './notification-settings';
import { TlsFiles, TlsSettingError, tlsSettings } from './tls-settings';

export type { DatabaseDialect, MysqlConnection } from './database-settings';
export type Deployment = 'self-hosted' | 'cloud';
export type StorageDriver = 'fs' | 's3';
export type Edition = 'free' | 'enterprise';

type Env = Record<string, string | undefined>;

export class ConfigError extends Error {}

/** scrypt's N = 2^17 for passwords, as current guidance asks; lower costs keep test suites quick. */
export const PRODUCTION_HASH_COST = 17;

function str(env: Env, name: string, fallback: string): string {
  const v = env[name];
  return v === undefined || v === '' ? fallback : v;
}

function optional(env: Env, name: string): string | undefined {
  const v = env[name];
  return v === undefined || v === '' ? undefined : v;
}

function int(env: Env, name: string, fallback: number, min = 0, max = Number.MAX_SAFE_INTEGER): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  if (!/^\d+$/.test(raw)) throw new ConfigError(`${name} must be a whole number, got "${raw}"`);
  const n = Number(raw);
  if (n < min || n > max) throw new ConfigError(`${name} must be between ${min} and ${max}, got ${n}`);
  return n;
}

/** Days to keep something, or null (unset or empty): keep it for ever. */
function optionalDays(env: Env, name: string): number | null {
  return env[name] === undefined || env[name] === '' ? null : int(env, name, 0, 0, 36500);
}

function bool(env: Env, name: string, fallback: boolean): boolean {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  if (['true', '1', 'yes'].includes(raw.toLowerCase())) return true;
  if (['false', '0', 'no'].includes(raw.toLowerCase())) return false;
  throw new ConfigError(`${name} must be true or false, got "${raw}"`);
}

function oneOf<T extends string>(env: Env, name: string, allowed: readonly T[], fallback: T): T {
  const raw = str(env, name, fallback);
  if (!allowed.includes(raw as T))
    throw new ConfigError(`${name} must be one of ${allowed.join(', ')}, got "${raw}"`);
  return raw as T;
}

/** `false`, `true`, a hop count, or Express's list form (`loopback`, `10.0.0.0/8, 192.168.1.1`). */
function trustProxy(env: Env, name: string): boolean | number | string {
  const raw = optional(env, name);
  if (raw === undefined || ['false', '0', 'no'].includes(raw.toLowerCase())) return false;
  if (['true', 'yes'].includes(raw.toLowerCase())) return true;
  if (/^\d+$/.test(raw)) return Number(raw);
  return raw;
}

function url(env: Env, name: string): string | undefined {
  const raw = optional(env, name);
  if (raw === undefined) return undefined;
  try {
    const u = new URL(raw);
    if (u.protocol !== 'http:' && u.protocol !== 'https:') throw new Error('scheme');
  } catch {
    throw new ConfigError(`${name} must be an absolute http(s) URL, got "${raw}"`);
  }
  return raw.replace(/\/+$/, '');
}

/** The database settings, their problems as ConfigErrors. */
function databaseFrom(env: Env, dataDir: string): DatabaseSettings {
  try {
    return databaseSettings(env, dataDir);
  } catch (err) {
    if (err instanceof DatabaseSettingError) throw new ConfigError(err.message);
    throw err;
  }
}

/** Below the 32 bytes of an HMAC-SHA256 output, guessing the key is easier than forging a link. */
const MIN_SIGNING_SECRET_BYTES = 32;

function signingSecret(value: string, source: string): string {
  const bytes = Buffer.byteLength(value);
  if (bytes < MIN_SIGNING_SECRET_BYTES) {
    throw new ConfigError(
      `${source} must be at least ${MIN_SIGNING_SECRET_BYTES} bytes long, got ${bytes}; ` +
        'generate one with `openssl rand -hex 32`',
    );
  }
  return value;
}

/** The length of an AES-256 key: what a master key of the secrets module must decode to. */
const MASTER_KEY_BYTES = 32;

/** A master key as the operator writes it: 32 bytes in base64 (standard or URL alphabet). */
export function masterKey(value: string, source: string): Buffer {
  const text = value.trim();
  const bytes = /^[A-Za-z0-9+/_-]+={0,2}$/.test(text) ? Buffer.from(text, 'base64') : Buffer.alloc(0);
  if (bytes.length !== MASTER_KEY_BYTES) {
    throw new ConfigError(
      `${source} must be ${MASTER_KEY_BYTES} bytes in base64, got ${bytes.length} bytes; ` +
        'generate one with `openssl rand -base64 32`',
    );
  }
  return bytes;
}

/**
 * Typed, validated configuration read once from the environment. Every variable is listed in
 * `.env.example`; a bad value stops the process at boot with a message naming the variable.
 */
export class AppConfig {
  readonly nodeEnv: string;
  readonly port: number;
  readonly host: string;
  readonly dataDir: string;
  readonly databaseUrl: string;
  readonly dialect: DatabaseDialect;
  /** Host, port, user, password and database of a MySQL or MariaDB DATABASE_URL (with DATABASE_PASSWORD). */
  readonly mysql?: MysqlConnection;
  /** The SQLite file (or `:memory:`) of a `sqlite:` DATABASE_URL; empty for MySQL. */
  readonly sqlitePath: string;
  readonly migrationsRun: boolean;
  readonly baseUrl?: string;
  readonly uploadUrl?: string;
  readonly signingSecret: string;
  /**
   * The master key that wraps new data keys (ENCRYPTION_KEY), or the file holding it
   * (ENCRYPTION_KEY_FILE); with neither, the secrets module keeps one in DATA_DIR.
   */
  readonly encryptionKey?: Buffer;
  readonly encryptionKeyFile?: string;
  /** Further master keys that unwrap data keys but never wrap new ones (during a rotation). */
  readonly encryptionExtraKeys: Buffer[];
  readonly deployment: Deployment;
  readonly defaultEdition: Edition;
  readonly logLevel: string;
  readonly rateLimitPerSecond: number;
  readonly redisUrl?: string;
  readonly redisKeyPrefix: string;
  /** Express `trust proxy`: which hops may set X-Forwarded-For (per-IP limits, request protocol). */
  readonly trustProxy: boolean | number | string;
  /** TLS_CERT_FILE and TLS_KEY_FILE: Plinth serves HTTPS itself, reloading both on SIGHUP. */
  readonly tls?: TlsFiles;
  readonly webConcurrency: number;
  readonly shutdownTimeoutMs: number;
  readonly storageDriver: StorageDriver;
  readonly s3Bucket?: string;
  readonly s3Endpoint?: string;
  readonly s3Region: string;
  readonly s3ForcePathStyle: boolean;
  readonly maxPolicyArchiveBytes: number;
  /** What an uploaded policy archive may expand to, its tar headers, and the time to read it. */
  readonly maxPolicyArchiveExpandedBytes: number;
  readonly maxPolicyArchiveEntries: number;
  readonly policyArchiveInspectionTimeoutMs: number;
  readonly maxProviderBinaryBytes: number;
  /** Largest registry module archive accepted, and what its inspection may expand to, hold and take. */
  readonly maxModuleArchiveBytes: number;
  readonly maxModuleArchiveExpandedBytes: number;
  readonly maxModuleArchiveEntries: number;
  readonly moduleArchiveInspectionTimeoutMs: number;
  /** Largest configuration version archive accepted (MAX_CONFIGURATION_BYTES). */
  readonly maxConfigurationBytes: number;
  /** Bytes, tar headers and milliseconds the inspection of one configuration archive may take. */
  readonly maxConfigurationExpandedBytes: number;
  readonly maxConfigurationEntries: number;
  readonly configurationInspectionTimeoutMs: number;
  /** Worker threads that inspect archives in each process (default: one per core but one). */
  readonly archiveInspectionWorkers: number;
  /** Archive inspections one organization may have running or waiting in a process; 429 past it. */
  readonly archiveInspectionsPerOrganization: number;
  /** Archive inspections that may wait for a worker in a process, all organizations together; 503 past it. */
  readonly archiveInspectionQueue: number;
  /** Largest state file (raw or JSON) a state version accepts, however it arrives (MAX_STATE_BYTES). */
  readonly maxStateBytes: number;
  /** Seconds without a heartbeat after which a claimed job and its run are errored (EXECUTOR_TIMEOUT). */
  readonly executorTimeoutSeconds: number;
  /** The longest an executor's claim may wait for a job (CLAIM_WAIT_MAX_SECONDS; 0: claims never wait). */
  readonly claimWaitMaxSeconds: number;
  /**
   * How often a process with waiting claims asks the database whether another node queued a job
   * (CLAIM_WAIT_CHECK_MS); with REDIS_URL the nodes tell each other and this check is a backstop.
   */
  readonly claimWaitCheckMs: number;
  /** Bytes of a plan's or apply's log kept; past it the head is cut and the tail kept (MAX_RUN_LOG_BYTES). */
  readonly maxRunLogBytes: number;
  readonly maxShasumsBytes: number;
  readonly maxSignatureBytes: number;
  readonly maxPolicyBytes: number;
  /** How long an upload's claim lives without a heartbeat before any node may sweep it. */
  readonly uploadLeaseSeconds: number;
  /** The longest an upload body may take to arrive (the HTTP server's request timeout). */
  readonly uploadTimeoutSeconds: number;
  readonly dbPoolSize: number;
  readonly dbConnectTimeoutMs: number;
  /** Further attempts, 3 s apart, to reach the database at start before giving up. */
  readonly dbConnectRetries: number;
  readonly dbAcquireTimeoutMs: number;
  /** Refuse (as a 500) any query a transaction would make on a second connection: for tests and diagnosis. */
  readonly dbTransactionGuard: boolean;
  /** How long a process may reuse what it read: token principals, rights, organizations, list totals (0 = never). */
  readonly cacheTtlMs: number;
  /** Bytes of rendered GET answers a process may keep (RESPONSE_CACHE_MB; 0 = none). */
  readonly responseCacheBytes: number;
  /**
   * Failures one address may make against one username per `loginLockoutSeconds` before it is
   * refused for it; also how many guesses at a username are checked at once in each lane.
   */
  readonly loginMaxFailures: number;
  /** How long failures against a username are remembered, from the first one. */
  readonly loginLockoutSeconds: number;
  /** Login attempts one client address may make per minute, on all processes together (0 = unlimited). */
  readonly loginAttemptsPerMinute: number;
  /** scrypt's N is 2^this for new password hashes (PASSWORD_HASH_COST; below 17 only outside production). */
  readonly passwordHashCost: number;
  /** Life of a token issued by the login route when the request names no `expired-at`. */
  readonly loginTokenTtlHours: number;
  /** Life of a token `terraform login` receives (CLI_LOGIN_TOKEN_TTL_DAYS). */
  readonly cliLoginTokenTtlDays: number;
  /** Days the audit trail keeps an event (AUDIT_RETENTION_DAYS; 0 = record nothing). */
  readonly auditRetentionDays: number;
  /** Days ended plans' and applies' logs are kept (RUN_LOG_RETENTION_DAYS; null = for ever). */
  readonly runLogRetentionDays: number | null;
  /** Days a plan's JSON is kept after the plan ended (PLAN_JSON_RETENTION_DAYS; null = for ever). */
  readonly planJsonRetentionDays: number | null;
  /** NOTIFICATION_*: where notifications may go, timeouts, retries (config/notification-settings.ts). */
  readonly notifications: NotificationSettings;

  constructor(env: Env = process.env) {
    this.nodeEnv = str(env, 'NODE_ENV', 'development');
    this.port = int(env, 'PORT', 3000, 0, 65535);
    this.host = str(env, 'HOST', '0.0.0.0');
    const dataDir = str(env, 'DATA_DIR', './data');
    this.dataDir = isAbsolute(dataDir) ? dataDir : resolve(process.cwd(), dataDir);
    const database = databaseFrom(env, this.dataDir);
    this.databaseUrl = database.url;
    this.dialect = database.dialect;
    this.mysql = database.mysql;
    this.sqlitePath = database.sqlitePath ?? '';
    this.migrationsRun = bool(env, 'MIGRATIONS_RUN', true);
    this.baseUrl = url(env, 'BASE_URL');
    this.uploadUrl = url(env, 'UPLOAD_URL');
    this.deployment = oneOf(env, 'DEPLOYMENT', ['self-hosted', 'cloud'] as const, 'self-hosted');
    this.defaultEdition = oneOf(env, 'DEFAULT_EDITION', ['free', 'enterprise'] as const, 'enterprise');
    this.logLevel = oneOf(
      env,
      'LOG_LEVEL',
      ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'],
      'info',
    );
    this.rateLimitPerSecond = int(env, 'RATE_LIMIT_PER_SECOND', 30);
    this.redisUrl = optional(env, 'REDIS_URL');
    this.redisKeyPrefix = str(env, 'REDIS_KEY_PREFIX', 'plinth:');
    this.trustProxy = trustProxy(env, 'TRUST_PROXY');
    try {
      this.tls = tlsSettings(env);
    } catch (err) {
      throw err instanceof TlsSettingError ? new ConfigError(err.message) : err;
    }
    this.webConcurrency = int(env, 'WEB_CONCURRENCY', 0, 0, 256);
    this.shutdownTimeoutMs = int(env, 'SHUTDOWN_TIMEOUT_MS', 25000, 0, 600000);
    this.storageDriver = oneOf(env, 'STORAGE_DRIVER', ['fs', 's3'] as const, 'fs');
    this.s3Bucket = optional(env, 'S3_BUCKET');
    this.s3Endpoint = url(env, 'S3_ENDPOINT');
    this.s3Region = str(env, 'S3_REGION', 'us-east-1');
    this.s3ForcePathStyle = bool(env, 'S3_FORCE_PATH_STYLE', false);
    if (this.storageDriver === 's3' && !this.s3Bucket)
      throw new ConfigError('S3_BUCKET is required when STORAGE_DRIVER=s3');
    this.maxPolicyArchiveBytes = int(env, 'MAX_POLICY_ARCHIVE_BYTES', 50 * 1024 * 1024, 1);
    this.maxPolicyArchiveExpandedBytes = int(env, 'MAX_POLICY_ARCHIVE_EXPANDED_BYTES', 256 * 1024 * 1024, 1);
    this.maxPolicyArchiveEntries = int(env, 'MAX_POLICY_ARCHIVE_ENTRIES', 10_000, 1);
    this.policyArchiveInspectionTimeoutMs = int(
      env,
      'POLICY_ARCHIVE_INSPECTION_TIMEOUT_MS',
      30_000,
      1,
      3_600_000,
    );
    this.maxConfigurationBytes = int(env, 'MAX_CONFIGURATION_BYTES', 100 * 1024 * 1024, 1);
    this.maxConfigurationExpandedBytes = int(env, 'MAX_CONFIGURATION_EXPANDED_BYTES', 1024 * 1024 * 1024, 1);
    this.maxConfigurationEntries = int(env, 'MAX_CONFIGURATION_ENTRIES', 50_000, 1);
    this.configurationInspectionTimeoutMs = int(
      env,
      'CONFIGURATION_INSPECTION_TIMEOUT_MS',
      60_000,
      1,
      3_600_000,
    );
    this.archiveInspectionWorkers = int(
      env,
      'ARCHIVE_INSPECTION_WORKERS',
      Math.max(1, availableParallelism() - 1),
      1,
      256,
    );
    this.archiveInspectionsPerOrganization = int(env, 'ARCHIVE_INSPECTIONS_PER_ORGANIZATION', 8, 1, 10_000);
    this.archiveInspectionQueue = int(env, 'ARCHIVE_INSPECTION_QUEUE', 64, 0, 100_000);
    this.maxStateBytes = int(env, 'MAX_STATE_BYTES', 64 * 1024 * 1024, 1, 1024 * 1024 * 1024);
    this.executorTimeoutSeconds = int(env, 'EXECUTOR_TIMEOUT', 120, 5, 86400);
    this.claimWaitMaxSeconds = int(env, 'CLAIM_WAIT_MAX_SECONDS', 30, 0, 300);
    this.claimWaitCheckMs = int(env, 'CLAIM_WAIT_CHECK_MS', 500, 50, 60000);
    this.maxRunLogBytes = int(env, 'MAX_RUN_LOG_BYTES', 5 * 1024 * 1024, 1024, 1024 * 1024 * 1024);
    this.maxProviderBinaryBytes = int(env, 'MAX_PROVIDER_BINARY_BYTES', 500 * 1024 * 1024, 1);
    this.maxModuleArchiveBytes = int(env, 'MAX_MODULE_ARCHIVE_BYTES', 100 * 1024 * 1024, 1);
    this.maxModuleArchiveExpandedBytes = int(env, 'MAX_MODULE_ARCHIVE_EXPANDED_BYTES', 512 * 1024 * 1024, 1);
    this.maxModuleArchiveEntries = int(env, 'MAX_MODULE_ARCHIVE_ENTRIES', 20_000, 1);
    this.moduleArchiveInspectionTimeoutMs = int(
      env,
      'MODULE_ARCHIVE_INSPECTION_TIMEOUT_MS',
      30_000,
      1,
      3_600_000,
    );
    this.maxShasumsBytes = int(env, 'MAX_SHASUMS_BYTES', 1024 * 1024, 1);
    this.maxSignatureBytes = int(env, 'MAX_SIGNATURE_BYTES', 64 * 1024, 1);
    this.maxPolicyBytes = int(env, 'MAX_POLICY_BYTES', 1024 * 1024, 1);
    this.uploadLeaseSeconds = int(env, 'UPLOAD_LEASE_SECONDS', 60, 1, 3600);
    this.uploadTimeoutSeconds = int(env, 'UPLOAD_TIMEOUT_SECONDS', 300, 1, 86400);
    this.dbPoolSize = int(env, 'DB_POOL_SIZE', 10, 1, 1000);
    this.dbConnectTimeoutMs = int(env, 'DB_CONNECT_TIMEOUT_MS', 3000, 100, 60000);
    this.dbConnectRetries = int(env, 'DB_CONNECT_RETRIES', 9, 0, 1000);
    this.dbAcquireTimeoutMs = int(env, 'DB_ACQUIRE_TIMEOUT_MS', 4000, 100, 60000);
    this.dbTransactionGuard = bool(env, 'DB_TRANSACTION_GUARD', false);
    this.cacheTtlMs = int(env, 'CACHE_TTL_MS', 5000, 0, 60000);
    this.responseCacheBytes = int(env, 'RESPONSE_CACHE_MB', 64, 0, 65536) * 1024 * 1024;
    this.loginMaxFailures = int(env, 'LOGIN_MAX_FAILURES', 5, 1, 1000);
    this.loginLockoutSeconds = int(env, 'LOGIN_LOCKOUT_SECONDS', 900, 1, 86400 * 30);
    this.loginAttemptsPerMinute = int(env, 'LOGIN_ATTEMPTS_PER_MINUTE', 10, 0, 100000);
    this.loginTokenTtlHours = int(env, 'LOGIN_TOKEN_TTL_HOURS', 24, 1, 24 * 366);
    this.cliLoginTokenTtlDays = int(env, 'CLI_LOGIN_TOKEN_TTL_DAYS', 30, 1, 3660);
    this.passwordHashCost = int(env, 'PASSWORD_HASH_COST', PRODUCTION_HASH_COST, 10, 20);
    if (this.isProduction && this.passwordHashCost < PRODUCTION_HASH_COST)
      throw new ConfigError(
        `PASSWORD_HASH_COST below ${PRODUCTION_HASH_COST} is for tests only; NODE_ENV=production refuses ${this.passwordHashCost}`,
      );
    this.auditRetentionDays = int(env, 'AUDIT_RETENTION_DAYS', 90, 0, 36500);
    this.runLogRetentionDays = optionalDays(env, 'RUN_LOG_RETENTION_DAYS');
    this.planJsonRetentionDays = optionalDays(env, 'PLAN_JSON_RETENTION_DAYS');
    try {
      this.notifications = notificationSettings(env);
    } catch (err) {
      throw err instanceof NotificationSettingError ? new ConfigError(err.message) : err;
    }
    const secret = optional(env, 'SIGNING_SECRET');
    this.signingSecret = secret ? signingSecret(secret, 'SIGNING_SECRET') : this.persistedSecret();
    const key = optional(env, 'ENCRYPTION_KEY');
    this.encryptionKeyFile = optional(env, 'ENCRYPTION_KEY_FILE');
    if (key && this.encryptionKeyFile) {
      throw new ConfigError('set ENCRYPTION_KEY or ENCRYPTION_KEY_FILE, not both');
    }
    this.encryptionKey = key ? masterKey(key, 'ENCRYPTION_KEY') : undefined;
    this.encryptionExtraKeys = (optional(env, 'ENCRYPTION_EXTRA_KEYS') ?? '')
      .split(',')
      .filter((k) => k.trim() !== '')
      .map((k, i) => masterKey(k, `ENCRYPTION_EXTRA_KEYS (key ${i + 1})`));
  }

  get isProduction(): boolean {
    return this.nodeEnv === 'production';
  }

  /** Worker processes to run: WEB_CONCURRENCY, else one per core in production and one in development. */
  workerCount(cores: number): number {
    if (this.webConcurrency > 0) return this.webConcurrency;
    return this.isProduction ? Math.max(1, cores) : 1;
  }

  /** A secret generated on first start and kept under DATA_DIR, so signed links survive restarts. */
  private persistedSecret(): string {
    const file = join(this.dataDir, 'signing-secret');
    const read = () => signingSecret(readFileSync(file, 'utf8').trim(), `the signing secret in ${file}`);
    if (existsSync(file)) return read();
    ensurePrivateDir(this.dataDir);
    try {
      writeFileSync(file, randomBytes(32).toString('hex'), { mode: PRIVATE_FILE_MODE, flag: 'wx' });
    } catch (err) {
      // Another worker process wrote it first; theirs is the one to keep.
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
    }
    return read();
  }
}
