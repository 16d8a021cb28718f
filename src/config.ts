/**
 * Configuration: the ONLY module that reads `process.env` (through `loadConfig(env)`).
 * Every variable is parsed and validated here, once, at start-up; a bad value stops the process
 * with a message that names the variable. Nothing else in the code base looks at the environment.
 */
import { randomBytes } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildEntitlements, type Entitlements } from './plans.js';
import { DEFAULT_SHAPE } from './platform/simulated/defaults.js';

export const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];
export const PLATFORM_SOURCES = ['simulated', 'roblox'] as const;
export type PlatformSourceName = (typeof PLATFORM_SOURCES)[number];

export interface Config {
  readonly port: number;
  readonly host: string;
  readonly dataDir: string;
  /** The built web app (index.html and assets) served at / ; a directory without index.html: API only. */
  readonly webDir: string;
  readonly databaseUrl: string | undefined;
  readonly redisUrl: string | undefined;
  readonly natsUrl: string | undefined;
  /** The JetStream stream of the ingest queue (its consumer is `<stream>_writer`). */
  readonly natsIngestStream: string;
  readonly platformSource: PlatformSourceName;
  /** Set when JWT_SECRET was given; otherwise `resolveJwtSecret` reads or creates one in DATA_DIR. */
  readonly jwtSecret: string | undefined;
  readonly publicUrl: string;
  readonly logLevel: LogLevel;
  /** How long a graceful shutdown may take before the process exits anyway. */
  readonly shutdownTimeoutMs: number;
  /** Behind a reverse proxy: take the client address from X-Forwarded-For. */
  readonly trustProxy: boolean;
  /** Plan limits (spec/DECISIONS.md §2), with the ENTITLEMENTS override applied. */
  readonly entitlements: Entitlements;
  /** How often the collector reads the platform. */
  readonly collectIntervalSec: number;
  /** Seed of the simulated market: the same seed gives the same market, moment by moment. */
  readonly simulationSeed: number;
  /** How many games the simulated market holds (a small one starts faster: demos, tests). */
  readonly simulationGames: number;
  /** How often the alert engine evaluates every rule (it also runs after each collection). */
  readonly alertIntervalSec: number;
  /** SMTP server for alert e-mail; unset: mail goes to the outbox table (`svc outbox`). */
  readonly smtpUrl: string | undefined;
  /** Let webhooks target loopback and private addresses (tests, on-premises receivers). */
  readonly webhookAllowPrivate: boolean;
  /** SECRETS_KEY (32 bytes) when set; otherwise `resolveSecretsKeys` reads or creates one in DATA_DIR. */
  readonly secretsKey: Buffer | undefined;
  /** SECRETS_KEY_PREVIOUS: older keys that still decrypt (rotation), never used to encrypt. */
  readonly secretsKeyPrevious: readonly Buffer[];
  /** Days raw SDK events are kept (whole monthly partitions are dropped after); ingest refuses
   * older events, so a rebuild (a repair) can never replace a day's rollups from a partial day. */
  readonly sdkEventRetentionDays: number;
  /** Days an event_id is remembered for dedupe (at most the retention). */
  readonly sdkDedupeHorizonDays: number;
  /** Third-party sign-in: a provider is here (enabled) only when its client id and secret are set. */
  readonly oauth: OAuthConfig;
}

export const OAUTH_PROVIDER_IDS = ['google', 'roblox', 'discord', 'x'] as const;
export type OAuthProviderId = (typeof OAUTH_PROVIDER_IDS)[number];

export interface OAuthClient {
  readonly clientId: string;
  readonly clientSecret: string;
}

/** Enabled providers and where they answer (the defaults are the real services). */
export interface OAuthConfig {
  /** OpenID Connect: discovery at `${issuer}/.well-known/openid-configuration`. */
  readonly google?: OAuthClient & { readonly issuer: string };
  readonly roblox?: OAuthClient & { readonly issuer: string };
  /** Authorize at `${baseUrl}/oauth2/authorize`, token and user under `${baseUrl}/api`. */
  readonly discord?: OAuthClient & { readonly baseUrl: string };
  /** Authorize at `${baseUrl}/i/oauth2/authorize`; token and user under `apiUrl` (`/2/...`). */
  readonly x?: OAuthClient & { readonly baseUrl: string; readonly apiUrl: string };
}

export class ConfigError extends Error {
  constructor(
    readonly variable: string,
    message: string,
  ) {
    super(`${variable} ${message}`);
    this.name = 'ConfigError';
  }
}

/** dist/web beside dist/ and src/ alike (this file runs from either). */
const DEFAULT_WEB_DIR = fileURLToPath(new URL('../dist/web/', import.meta.url));

type Env = Readonly<Record<string, string | undefined>>;

/** One row per variable: the README's configuration table is this list. */
export const CONFIG_VARIABLES = [
  ['PORT', '8080', 'HTTP port (0 picks a free one)'],
  ['HOST', 'localhost', 'interface to listen on; 0.0.0.0 to accept outside connections'],
  ['DATA_DIR', './data', 'embedded database (DATA_DIR/pg), generated secrets'],
  [
    'WEB_DIR',
    '(dist/web, built by npm run build)',
    'the web app served at /; without an index.html only the API is served',
  ],
  ['DATABASE_URL', '(unset: embedded PGlite)', 'PostgreSQL 15+ connection URL'],
  ['REDIS_URL', '(unset: in-memory)', 'Redis for rate limits and shared caches'],
  ['NATS_URL', '(unset: the outbox table)', 'NATS JetStream for the ingest queue'],
  ['NATS_INGEST_STREAM', 'SVC_INGEST', 'JetStream stream of the ingest queue (one per deployment)'],
  ['PLATFORM_SOURCE', 'simulated', '`simulated` market or the public `roblox` web APIs'],
  ['JWT_SECRET', '(generated into DATA_DIR)', 'at least 32 characters; set it when several hosts serve'],
  ['PUBLIC_URL', 'http://localhost:PORT', 'the address users reach; https enables Secure cookies'],
  ['LOG_LEVEL', 'info', LOG_LEVELS.join(' | ')],
  ['SHUTDOWN_TIMEOUT_MS', '10000', 'grace period for in-flight requests on SIGTERM/SIGINT'],
  ['TRUST_PROXY', 'false', 'true behind a reverse proxy: client IPs come from X-Forwarded-For'],
  ['COLLECT_INTERVAL_SEC', '300', 'how often the collector reads the platform (CCU sampling interval)'],
  ['SIMULATION_SEED', '1', 'seed of the simulated market (same seed, same market)'],
  ['SIMULATION_GAMES', '5000', 'games in the simulated market (100 to 50,000; fewer start faster)'],
  [
    'ALERT_INTERVAL_SEC',
    '900',
    'how often the alert engine evaluates every rule (also after each collection)',
  ],
  [
    'SMTP_URL',
    '(unset: outbox table)',
    'smtp:// or smtps:// server for alert e-mail; unset: `svc outbox` reads them',
  ],
  ['WEBHOOK_ALLOW_PRIVATE', 'false', 'true lets webhooks target loopback and private addresses'],
  ['SDK_EVENT_RETENTION_DAYS', '400', 'days raw SDK events are kept (≥ 35; rollups are kept)'],
  ['SDK_DEDUPE_HORIZON_DAYS', '35', 'days an SDK event_id is remembered for dedupe (35 to the retention)'],
  [
    'SECRETS_KEY',
    '(generated into DATA_DIR)',
    '32-byte key (hex or base64) encrypting webhook secrets; same on every host',
  ],
  ['SECRETS_KEY_PREVIOUS', '(none)', 'comma-separated older keys that still decrypt (rotation, see below)'],
  ['OAUTH_GOOGLE_CLIENT_ID', '(unset: Google sign-in off)', 'Google OAuth client id (needs the secret too)'],
  ['OAUTH_GOOGLE_CLIENT_SECRET', '(unset)', 'its client secret'],
  ['OAUTH_GOOGLE_ISSUER', 'https://accounts.google.com', 'OpenID Connect issuer (tests, self-hosting)'],
  [
    'OAUTH_ROBLOX_CLIENT_ID',
    '(unset: Roblox sign-in off)',
    'Roblox OAuth app client id (needs the secret too)',
  ],
  ['OAUTH_ROBLOX_CLIENT_SECRET', '(unset)', 'its client secret'],
  ['OAUTH_ROBLOX_ISSUER', 'https://apis.roblox.com/oauth/', 'OpenID Connect issuer (tests, self-hosting)'],
  [
    'OAUTH_DISCORD_CLIENT_ID',
    '(unset: Discord sign-in off)',
    'Discord application client id (needs the secret too)',
  ],
  ['OAUTH_DISCORD_CLIENT_SECRET', '(unset)', 'its client secret'],
  [
    'OAUTH_DISCORD_BASE_URL',
    'https://discord.com',
    'Discord: /oauth2/authorize, /api/oauth2/token, /api/users/@me',
  ],
  ['OAUTH_X_CLIENT_ID', '(unset: X sign-in off)', 'X OAuth 2.0 client id (needs the secret too)'],
  ['OAUTH_X_CLIENT_SECRET', '(unset)', 'its client secret'],
  ['OAUTH_X_BASE_URL', 'https://x.com', 'X: /i/oauth2/authorize'],
  ['OAUTH_X_API_URL', 'https://api.x.com', 'X API: /2/oauth2/token, /2/users/me'],
  [
    'ENTITLEMENTS',
    '(built-in plan table)',
    'JSON overriding plan limits, e.g. {"plans":{"Builder":{"trackedGames":50}}}',
  ],
] as const;

function read(env: Env, name: string): string | undefined {
  const raw = env[name];
  if (raw === undefined) return undefined;
  const trimmed = raw.trim();
  return trimmed === '' ? undefined : trimmed;
}

function integer(env: Env, name: string, fallback: number, min: number, max: number): number {
  const raw = read(env, name);
  if (raw === undefined) return fallback;
  if (!/^\d+$/.test(raw) || Number(raw) < min || Number(raw) > max) {
    throw new ConfigError(name, `must be an integer from ${min} to ${max} (got "${raw}")`);
  }
  return Number(raw);
}

function boolean(env: Env, name: string, fallback: boolean): boolean {
  const raw = read(env, name)?.toLowerCase();
  if (raw === undefined) return fallback;
  if (['true', '1', 'yes'].includes(raw)) return true;
  if (['false', '0', 'no'].includes(raw)) return false;
  throw new ConfigError(name, `must be true or false (got "${raw}")`);
}

function entitlements(env: Env): Entitlements {
  const raw = read(env, 'ENTITLEMENTS');
  let parsed: unknown;
  if (raw !== undefined) {
    try {
      parsed = JSON.parse(raw);
    } catch {
      throw new ConfigError('ENTITLEMENTS', 'is not valid JSON');
    }
  }
  const built = buildEntitlements(parsed);
  if (typeof built === 'string') throw new ConfigError('ENTITLEMENTS', `is invalid: ${built}`);
  return built;
}

/** A JetStream stream name: letters, digits, `_` and `-` (no dots, spaces or wildcards). */
function streamName(env: Env, name: string, fallback: string): string {
  const v = read(env, name);
  if (v === undefined) return fallback;
  if (!/^[A-Za-z0-9_-]{1,64}$/.test(v)) {
    throw new ConfigError(name, 'must be 1 to 64 letters, digits, _ or -');
  }
  return v;
}

function oneOf<T extends string>(env: Env, name: string, allowed: readonly T[], fallback: T): T {
  const raw = read(env, name);
  if (raw === undefined) return fallback;
  const value = raw.toLowerCase();
  const match = allowed.find((a) => a === value);
  if (!match) throw new ConfigError(name, `must be one of ${allowed.join(', ')} (got "${raw}")`);
  return match;
}

/** Validates a URL and its scheme; the value itself is never echoed (it may carry a password). */
function url(env: Env, name: string, schemes: readonly string[]): string | undefined {
  const raw = read(env, name);
  if (raw === undefined) return undefined;
  for (const part of raw.split(',')) {
    let parsed: URL;
    try {
      parsed = new URL(part.trim());
    } catch {
      throw new ConfigError(
        name,
        `is not a valid URL (expected ${schemes.map((s) => `${s}//…`).join(' or ')})`,
      );
    }
    if (!schemes.includes(parsed.protocol)) {
      throw new ConfigError(name, `must use ${schemes.join(' or ')} (got "${parsed.protocol}")`);
    }
  }
  return raw;
}

/** A 256-bit key written as 64 hex digits or base64 (standard or url-safe); undefined otherwise. */
export function parseKey(raw: string): Buffer | undefined {
  if (/^[0-9a-fA-F]{64}$/.test(raw)) return Buffer.from(raw, 'hex');
  if (!/^[A-Za-z0-9+/_-]{43}=?$/.test(raw)) return undefined;
  const key = Buffer.from(raw.replace(/-/g, '+').replace(/_/g, '/'), 'base64');
  return key.length === 32 ? key : undefined;
}

const KEY_FORMAT = 'must be 32 bytes written as 64 hex digits or base64 (`openssl rand -base64 32`)';

/** The value is a key: a refusal names the variable and the length, never the value. */
function keys(env: Env, name: string): Buffer[] {
  const raw = read(env, name);
  if (raw === undefined) return [];
  const parts = raw.split(',').map((p) => p.trim());
  return parts.map((part, i) => {
    const key = parseKey(part);
    if (key) return key;
    const which = parts.length > 1 ? ` (item ${i + 1})` : '';
    throw new ConfigError(name, `${KEY_FORMAT}${which} (got ${part.length} characters)`);
  });
}

export function loadConfig(env: Env): Config {
  const port = integer(env, 'PORT', 8080, 0, 65535);
  const host = read(env, 'HOST') ?? 'localhost';
  const dataDir = resolve(read(env, 'DATA_DIR') ?? './data');
  const webDir = resolve(read(env, 'WEB_DIR') ?? DEFAULT_WEB_DIR);
  const jwtSecret = read(env, 'JWT_SECRET');
  if (jwtSecret !== undefined && jwtSecret.length < 32) {
    throw new ConfigError('JWT_SECRET', `must be at least 32 characters (got ${jwtSecret.length})`);
  }
  const publicUrl = url(env, 'PUBLIC_URL', ['http:', 'https:']) ?? `http://localhost:${port || 8080}`;
  if (publicUrl.includes(',')) throw new ConfigError('PUBLIC_URL', 'must be a single URL');
  const secretsKey = keys(env, 'SECRETS_KEY');
  if (secretsKey.length > 1) throw new ConfigError('SECRETS_KEY', 'must be a single key');
  return Object.freeze({
    port,
    host,
    dataDir,
    webDir,
    databaseUrl: url(env, 'DATABASE_URL', ['postgres:', 'postgresql:']),
    redisUrl: url(env, 'REDIS_URL', ['redis:', 'rediss:']),
    natsUrl: url(env, 'NATS_URL', ['nats:', 'tls:', 'ws:', 'wss:']),
    natsIngestStream: streamName(env, 'NATS_INGEST_STREAM', 'SVC_INGEST'),
    platformSource: oneOf(env, 'PLATFORM_SOURCE', PLATFORM_SOURCES, 'simulated'),
    jwtSecret,
    publicUrl: publicUrl.replace(/\/+$/, ''),
    logLevel: oneOf(env, 'LOG_LEVEL', LOG_LEVELS, 'info'),
    shutdownTimeoutMs: integer(env, 'SHUTDOWN_TIMEOUT_MS', 10_000, 100, 600_000),
    trustProxy: boolean(env, 'TRUST_PROXY', false),
    collectIntervalSec: integer(env, 'COLLECT_INTERVAL_SEC', 300, 10, 86_400),
    simulationSeed: integer(env, 'SIMULATION_SEED', 1, 0, 2_147_483_647),
    simulationGames: integer(env, 'SIMULATION_GAMES', DEFAULT_SHAPE.games, 100, 50_000),
    alertIntervalSec: integer(env, 'ALERT_INTERVAL_SEC', 900, 10, 86_400),
    smtpUrl: url(env, 'SMTP_URL', ['smtp:', 'smtps:']),
    webhookAllowPrivate: boolean(env, 'WEBHOOK_ALLOW_PRIVATE', false),
    secretsKey: secretsKey[0],
    secretsKeyPrevious: Object.freeze(keys(env, 'SECRETS_KEY_PREVIOUS')),
    entitlements: entitlements(env),
    ...sdkRetention(env),
    oauth: oauthConfig(env),
  });
}

/** http:// only for this machine (tests, development); https:// for everything else. */
export function isLoopbackHttp(url: URL): boolean {
  return url.protocol === 'http:' && ['localhost', '127.0.0.1', '[::1]'].includes(url.hostname);
}

/** A provider endpoint: https, or http on loopback; without a trailing slash unless `keepSlash`. */
function endpoint(env: Env, name: string, fallback: string, keepSlash = false): string {
  const raw = read(env, name);
  if (raw === undefined) return fallback;
  let parsed: URL;
  try {
    parsed = new URL(raw);
  } catch {
    throw new ConfigError(name, 'is not a valid URL (expected https://…)');
  }
  if (parsed.protocol !== 'https:' && !isLoopbackHttp(parsed)) {
    throw new ConfigError(name, 'must use https: (http: only for localhost or 127.0.0.1)');
  }
  return keepSlash ? raw : raw.replace(/\/+$/, '');
}

/** Both or neither: a client id without its secret (or the reverse) is a mistake, not "off". */
function oauthClient(env: Env, provider: string): OAuthClient | undefined {
  const idName = `OAUTH_${provider}_CLIENT_ID`;
  const secretName = `OAUTH_${provider}_CLIENT_SECRET`;
  const clientId = read(env, idName);
  const clientSecret = read(env, secretName);
  if (clientId === undefined && clientSecret === undefined) return undefined;
  if (clientId === undefined) throw new ConfigError(idName, `must be set when ${secretName} is`);
  if (clientSecret === undefined) throw new ConfigError(secretName, `must be set when ${idName} is`);
  return { clientId, clientSecret };
}

function oauthConfig(env: Env): OAuthConfig {
  const google = oauthClient(env, 'GOOGLE');
  const roblox = oauthClient(env, 'ROBLOX');
  const discord = oauthClient(env, 'DISCORD');
  const x = oauthClient(env, 'X');
  // Every endpoint is validated whether or not its provider is on, so a typo shows at once.
  const googleIssuer = endpoint(env, 'OAUTH_GOOGLE_ISSUER', 'https://accounts.google.com', true);
  const robloxIssuer = endpoint(env, 'OAUTH_ROBLOX_ISSUER', 'https://apis.roblox.com/oauth/', true);
  const discordBase = endpoint(env, 'OAUTH_DISCORD_BASE_URL', 'https://discord.com');
  const xBase = endpoint(env, 'OAUTH_X_BASE_URL', 'https://x.com');
  const xApi = endpoint(env, 'OAUTH_X_API_URL', 'https://api.x.com');
  return Object.freeze({
    ...(google ? { google: { ...google, issuer: googleIssuer } } : {}),
    ...(roblox ? { roblox: { ...roblox, issuer: robloxIssuer } } : {}),
    ...(discord ? { discord: { ...discord, baseUrl: discordBase } } : {}),
    ...(x ? { x: { ...x, baseUrl: xBase, apiUrl: xApi } } : {}),
  });
}

/** The horizon may not pass the retention: ingest refuses events older than the retention, so
 * remembering their ids longer would only grow event_ids. */
function sdkRetention(env: Env): { sdkEventRetentionDays: number; sdkDedupeHorizonDays: number } {
  const sdkEventRetentionDays = integer(env, 'SDK_EVENT_RETENTION_DAYS', 400, 35, 36_500);
  const sdkDedupeHorizonDays = integer(env, 'SDK_DEDUPE_HORIZON_DAYS', 35, 35, 36_500);
  if (sdkDedupeHorizonDays > sdkEventRetentionDays) {
    throw new ConfigError(
      'SDK_DEDUPE_HORIZON_DAYS',
      `must not exceed SDK_EVENT_RETENTION_DAYS (${sdkEventRetentionDays}) (got "${sdkDedupeHorizonDays}")`,
    );
  }
  return { sdkEventRetentionDays, sdkDedupeHorizonDays };
}

/**
 * The signing secret: JWT_SECRET when set, else a random one generated on first use and kept in
 * DATA_DIR/jwt-secret (mode 0600), so sessions survive restarts of a single-host install.
 */
export function resolveJwtSecret(config: Pick<Config, 'jwtSecret' | 'dataDir'>): string {
  if (config.jwtSecret) return config.jwtSecret;
  return readOrCreateSecret(config.dataDir, 'jwt-secret');
}

/** The keys that encrypt secrets at rest: the current one (encrypts) and older ones (decrypt only). */
export interface SecretsKeys {
  readonly current: Buffer;
  readonly previous: readonly Buffer[];
}

/**
 * SECRETS_KEY when set, else a random 32-byte key generated on first use and kept in
 * DATA_DIR/secrets-key (mode 0600, base64, the form SECRETS_KEY takes), so a single-host install
 * keeps reading its webhook secrets across restarts. SECRETS_KEY_PREVIOUS applies either way.
 */
export function resolveSecretsKeys(
  config: Pick<Config, 'secretsKey' | 'secretsKeyPrevious' | 'dataDir'>,
): SecretsKeys {
  const previous = config.secretsKeyPrevious;
  if (config.secretsKey) return { current: config.secretsKey, previous };
  const stored = readOrCreateSecret(config.dataDir, 'secrets-key', () => randomBytes(32).toString('base64'));
  const current = parseKey(stored);
  if (!current) {
    throw new ConfigError(
      'DATA_DIR',
      `holds a secrets-key file that ${KEY_FORMAT}; restore it or set SECRETS_KEY`,
    );
  }
  return { current, previous };
}

/** Reads DATA_DIR/<name>, creating it with `generate()` (48 random bytes, base64url) when absent. */
export function readOrCreateSecret(
  dataDir: string,
  name: string,
  generate: () => string = () => randomBytes(48).toString('base64url'),
): string {
  const file = join(dataDir, name);
  try {
    const existing = readFileSync(file, 'utf8').trim();
    if (existing.length >= 32) return existing;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
  }
  mkdirSync(dataDir, { recursive: true });
  const secret = generate();
  try {
    // 'wx' fails if another process created it in the meantime; then theirs wins.
    writeFileSync(file, `${secret}\n`, { mode: 0o600, flag: 'wx' });
    return secret;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'EEXIST') return readFileSync(file, 'utf8').trim();
    throw err;
  }
}
