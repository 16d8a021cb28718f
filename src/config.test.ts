import { mkdtempSync, readFileSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { DEFAULT_ENTITLEMENTS } from './accounts/plans.js';
import { CONFIG_VARIABLES, ConfigError, loadConfig, resolveJwtSecret } from './config.js';

function configError(env: Record<string, string>): ConfigError {
  try {
    loadConfig(env);
  } catch (err) {
    if (err instanceof ConfigError) return err;
    throw err;
  }
  throw new Error('expected a ConfigError');
}

describe('loadConfig', () => {
  it('uses the documented defaults when nothing is set', () => {
    const config = loadConfig({});
    expect(config).toEqual({
      port: 8080,
      host: 'localhost',
      dataDir: resolve('./data'),
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
      alertIntervalSec: 900,
      smtpUrl: undefined,
      webhookAllowPrivate: false,
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
      { SHUTDOWN_TIMEOUT_MS: '5' },
      'SHUTDOWN_TIMEOUT_MS',
      'SHUTDOWN_TIMEOUT_MS must be an integer from 100 to 600000 (got "5")',
    ],
  ])('rejects %o naming the variable', (env, variable, message) => {
    const err = configError(env);
    expect(err.variable).toBe(variable);
    expect(err.message).toEqual(message);
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

describe('README', () => {
  it('documents every configuration variable with its default', () => {
    const readme = readFileSync(new URL('../README.md', import.meta.url), 'utf8');
    for (const [name, fallback] of CONFIG_VARIABLES) {
      const escaped = fallback.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
      expect(readme).toMatch(new RegExp(`\\|\\s*\`${name}\`\\s*\\|\\s*${escaped}\\s*\\|`));
    }
  });
});
