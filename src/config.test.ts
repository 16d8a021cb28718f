import { mkdtempSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { configErrorOf as configError } from '../test/helpers/config.js';
import { CONFIG_VARIABLES, loadConfig, resolveJwtSecret, resolveSecretsKeys } from './config.js';
import { DEFAULT_ENTITLEMENTS } from './plans.js';

describe('loadConfig', () => {
  it('uses the documented defaults when nothing is set', () => {
    const config = loadConfig({});
    expect(config).toEqual({
      port: 8080,
      host: 'localhost',
      dataDir: resolve('./data'),
      // dist/web at the package root, wherever the process runs from.
      webDir: fileURLToPath(new URL('../dist/web', import.meta.url)),
      databaseUrl: undefined,
      redisUrl: undefined,
      natsUrl: undefined,
      natsIngestStream: 'SVC_INGEST',
      platformSource: 'simulated',
      jwtSecret: undefined,
      publicUrl: 'http://localhost:8080',
      logLevel: 'info',
      shutdownTimeoutMs: 10_000,
      trustProxy: false,
      entitlements: DEFAULT_ENTITLEMENTS,
      collectIntervalSec: 300,
      simulationSeed: 1,
      simulationGames: 5000,
      alertIntervalSec: 900,
      smtpUrl: undefined,
      webhookAllowPrivate: false,
      secretsKey: undefined,
      secretsKeyPrevious: [],
      sdkEventRetentionDays: 400,
      sdkDedupeHorizonDays: 35,
      oauth: {},
    });
    expect(Object.isFrozen(config)).toBe(true);
  });

  it('reads every variable', () => {
    const config = loadConfig({
      PORT: '9000',
      HOST: '0.0.0.0',
      DATA_DIR: '/var/lib/svc',
      DATABASE_URL: 'postgres://svc:pw@db:5432/svc',
      REDIS_URL: 'redis://cache:6379',
      NATS_URL: 'nats://q1:4222,nats://q2:4222',
      NATS_INGEST_STREAM: 'SVC_INGEST_EU',
      PLATFORM_SOURCE: 'Roblox',
      JWT_SECRET: 'x'.repeat(40),
      PUBLIC_URL: 'https://svc.example.com/',
      LOG_LEVEL: 'DEBUG',
      SHUTDOWN_TIMEOUT_MS: '2500',
      TRUST_PROXY: 'true',
      SIMULATION_GAMES: '1500',
    });
    expect(config).toMatchObject({
      port: 9000,
      host: '0.0.0.0',
      dataDir: '/var/lib/svc',
      databaseUrl: 'postgres://svc:pw@db:5432/svc',
      redisUrl: 'redis://cache:6379',
      natsUrl: 'nats://q1:4222,nats://q2:4222',
      natsIngestStream: 'SVC_INGEST_EU',
      platformSource: 'roblox',
      jwtSecret: 'x'.repeat(40),
      publicUrl: 'https://svc.example.com',
      logLevel: 'debug',
      shutdownTimeoutMs: 2500,
      trustProxy: true,
      simulationGames: 1500,
    });
  });

  it('applies an ENTITLEMENTS override on top of the plan table', () => {
    const config = loadConfig({
      ENTITLEMENTS: '{"plans":{"Builder":{"trackedGames":50}},"anonymousRatePerMin":10}',
    });
    expect(config.entitlements.plans.Builder).toEqual({
      ...DEFAULT_ENTITLEMENTS.plans.Builder,
      trackedGames: 50,
    });
    expect(config.entitlements.plans.Studio).toEqual(DEFAULT_ENTITLEMENTS.plans.Studio);
    expect(config.entitlements.anonymousRatePerMin).toBe(10);
  });

  it('treats empty values as unset', () => {
    expect(loadConfig({ PORT: '', DATABASE_URL: '  ' })).toMatchObject({
      port: 8080,
      databaseUrl: undefined,
    });
  });

  it.each([
    [{ PORT: 'abc' }, 'PORT', 'PORT must be an integer from 0 to 65535 (got "abc")'],
    [
      { NATS_INGEST_STREAM: 'svc.ingest' },
      'NATS_INGEST_STREAM',
      'NATS_INGEST_STREAM must be 1 to 64 letters, digits, _ or -',
    ],
    [{ PORT: '70000' }, 'PORT', 'PORT must be an integer from 0 to 65535 (got "70000")'],
    [{ PORT: '-1' }, 'PORT', 'PORT must be an integer from 0 to 65535 (got "-1")'],
    [
      { PLATFORM_SOURCE: 'steam' },
      'PLATFORM_SOURCE',
      'PLATFORM_SOURCE must be one of simulated, roblox (got "steam")',
    ],
    [
      { LOG_LEVEL: 'loud' },
      'LOG_LEVEL',
      'LOG_LEVEL must be one of fatal, error, warn, info, debug, trace, silent (got "loud")',
    ],
    [
      { DATABASE_URL: 'mysql://x@y/z' },
      'DATABASE_URL',
      'DATABASE_URL must use postgres: or postgresql: (got "mysql:")',
    ],
    [
      { DATABASE_URL: 'not a url' },
      'DATABASE_URL',
      'DATABASE_URL is not a valid URL (expected postgres://… or postgresql://…)',
    ],
    [{ REDIS_URL: 'http://cache' }, 'REDIS_URL', 'REDIS_URL must use redis: or rediss: (got "http:")'],
    [
      { NATS_URL: 'nats://ok:4222,http://bad' },
      'NATS_URL',
      'NATS_URL must use nats: or tls: or ws: or wss: (got "http:")',
    ],
    [{ JWT_SECRET: 'short' }, 'JWT_SECRET', 'JWT_SECRET must be at least 32 characters (got 5)'],
    [{ PUBLIC_URL: 'ftp://svc' }, 'PUBLIC_URL', 'PUBLIC_URL must use http: or https: (got "ftp:")'],
    [{ TRUST_PROXY: 'maybe' }, 'TRUST_PROXY', 'TRUST_PROXY must be true or false (got "maybe")'],
    [{ ENTITLEMENTS: '{plans' }, 'ENTITLEMENTS', 'ENTITLEMENTS is not valid JSON'],
    [
      { ENTITLEMENTS: '{"plans":{"Gold":{}}}' },
      'ENTITLEMENTS',
      expect.stringMatching(/^ENTITLEMENTS is invalid: \/plans/),
    ],
    [
      { ENTITLEMENTS: '{"plans":{"Builder":{"trackedGames":-1}}}' },
      'ENTITLEMENTS',
      expect.stringMatching(/^ENTITLEMENTS is invalid: \/plans\/Builder\/trackedGames /),
    ],
    [
      { SIMULATION_GAMES: '99' },
      'SIMULATION_GAMES',
      'SIMULATION_GAMES must be an integer from 100 to 50000 (got "99")',
    ],
    [
      { SHUTDOWN_TIMEOUT_MS: '5' },
      'SHUTDOWN_TIMEOUT_MS',
      'SHUTDOWN_TIMEOUT_MS must be an integer from 100 to 600000 (got "5")',
    ],
  ])('rejects %o naming the variable', (env, variable, message) => {
    const err = configError(env);
    expect(err.variable).toBe(variable);
    expect(err.message).toEqual(message);
  });

  it('reads SECRETS_KEY and SECRETS_KEY_PREVIOUS as 32-byte keys in hex, base64 or base64url', () => {
    const hex = 'ab'.repeat(32);
    const b64 = Buffer.alloc(32, 0xfb).toString('base64');
    const b64url = Buffer.alloc(32, 0xfb).toString('base64url');
    const config = loadConfig({ SECRETS_KEY: hex, SECRETS_KEY_PREVIOUS: `${b64}, ${b64url}` });
    expect(config.secretsKey).toEqual(Buffer.alloc(32, 0xab));
    expect(config.secretsKeyPrevious).toEqual([Buffer.alloc(32, 0xfb), Buffer.alloc(32, 0xfb)]);
  });

  it.each([
    [{ SECRETS_KEY: 'too-short' }, 'SECRETS_KEY', 9, ''],
    [{ SECRETS_KEY: 'ab'.repeat(31) }, 'SECRETS_KEY', 62, ''],
    [{ SECRETS_KEY: Buffer.alloc(24).toString('base64') }, 'SECRETS_KEY', 32, ''],
    [{ SECRETS_KEY: `${'ab'.repeat(32)},${'cd'.repeat(32)}` }, 'SECRETS_KEY', 0, ''],
    [{ SECRETS_KEY_PREVIOUS: `${'ab'.repeat(32)},hunter2-hunter2` }, 'SECRETS_KEY_PREVIOUS', 15, ' (item 2)'],
  ])('rejects a malformed key %o naming the variable, never the value', (env, variable, length, item) => {
    const err = configError(env);
    expect(err.variable).toBe(variable);
    expect(err.message).toBe(
      length === 0
        ? 'SECRETS_KEY must be a single key'
        : `${variable} must be 32 bytes written as 64 hex digits or base64 (\`openssl rand -base64 32\`)${item} (got ${length} characters)`,
    );
    expect(err.message).not.toContain('hunter2');
  });

  it('never echoes a database URL, which may carry a password', () => {
    const err = configError({ DATABASE_URL: 'mysql://admin:hunter2@db/x' });
    expect(err.message).not.toContain('hunter2');
  });
});

describe('resolveJwtSecret', () => {
  it('uses JWT_SECRET when it is set', () => {
    expect(resolveJwtSecret({ jwtSecret: 'k'.repeat(32), dataDir: '/nonexistent' })).toBe('k'.repeat(32));
  });

  it('generates a secret once, keeps it in DATA_DIR with mode 0600, and reuses it', () => {
    const dataDir = join(mkdtempSync(join(tmpdir(), 'svc-config-')), 'nested');
    const first = resolveJwtSecret({ jwtSecret: undefined, dataDir });
    expect(first).toMatch(/^[A-Za-z0-9_-]{64}$/);
    expect(readFileSync(join(dataDir, 'jwt-secret'), 'utf8').trim()).toBe(first);
    expect(statSync(join(dataDir, 'jwt-secret')).mode & 0o777).toBe(0o600);
    expect(resolveJwtSecret({ jwtSecret: undefined, dataDir })).toBe(first);
  });
});

describe('resolveSecretsKeys', () => {
  it('uses SECRETS_KEY when it is set, with the previous keys', () => {
    const current = Buffer.alloc(32, 1);
    const previous = [Buffer.alloc(32, 2)];
    expect(
      resolveSecretsKeys({ secretsKey: current, secretsKeyPrevious: previous, dataDir: '/nonexistent' }),
    ).toEqual({ current, previous });
  });

  it('generates a 32-byte key once, keeps it in DATA_DIR as base64 with mode 0600, and reuses it', () => {
    const dataDir = join(mkdtempSync(join(tmpdir(), 'svc-config-')), 'nested');
    const previous = [Buffer.alloc(32, 2)];
    const first = resolveSecretsKeys({ secretsKey: undefined, secretsKeyPrevious: previous, dataDir });
    expect(first.current).toHaveLength(32);
    expect(first.previous).toEqual(previous);
    const file = join(dataDir, 'secrets-key');
    expect(readFileSync(file, 'utf8').trim()).toBe(first.current.toString('base64'));
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(resolveSecretsKeys({ secretsKey: undefined, secretsKeyPrevious: [], dataDir }).current).toEqual(
      first.current,
    );
    // The generated file takes the form SECRETS_KEY takes, so it can be moved into the configuration.
    expect(loadConfig({ SECRETS_KEY: readFileSync(file, 'utf8') }).secretsKey).toEqual(first.current);
  });

  it('refuses a damaged key file in DATA_DIR rather than making a new key', () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'svc-config-'));
    writeFileSync(join(dataDir, 'secrets-key'), `${'x'.repeat(40)}\n`);
    expect(() => resolveSecretsKeys({ secretsKey: undefined, secretsKeyPrevious: [], dataDir })).toThrow(
      'DATA_DIR holds a secrets-key file that must be 32 bytes written as 64 hex digits or base64 (`openssl rand -base64 32`); restore it or set SECRETS_KEY',
    );
  });
});

describe('README', () => {
  it('documents every configuration variable with its default', () => {
    const readme = readFileSync(new URL('../README.md', import.meta.url), 'utf8');
    for (const [name, fallback] of CONFIG_VARIABLES) {
      const escaped = fallback.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
      expect(readme).toMatch(new RegExp(`\\|\\s*\`${name}\`\\s*\\|\\s*${escaped}\\s*\\|`));
    }
  });
});
