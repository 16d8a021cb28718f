#!/usr/bin/env node
/**
 * The `svc` command. Every role runs from the same binary: `svc serve` (default), `svc worker`,
 * `svc migrate`; later capabilities add their own subcommands to COMMANDS.
 * Exit codes: 0 done, 1 failed, 2 bad usage or configuration.
 */
import { existsSync, realpathSync } from 'node:fs';
import { join } from 'node:path';
import type { Writable } from 'node:stream';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { KEYS_USAGE, keysCommand, USER_USAGE, userCommand } from './accounts/accounts.cli.js';
import { EXPORT_USAGE, exportCommand } from './analytics/index.js';
import { systemClock } from './clock.js';
import { type Config, ConfigError, loadConfig, resolveJwtSecret, resolveSecretsKeys } from './config.js';
import { connectDb, loadMigrations, MigrationError, migrate, migrationStatus } from './db/index.js';
import { DOCTOR_USAGE, doctorCommand } from './doctor/index.js';
import { CliUsageError } from './errors.js';
import { FORECAST_USAGE, forecastCommand } from './games/forecast/forecast.cli.js';
import { EVENTS_USAGE, eventsCommand } from './ingest/index.js';
import { connectKv } from './kv/index.js';
import { closeOnSignals, createLogger, openDatabase, startServer, startWorker } from './main.js';
import {
  BACKFILL_USAGE,
  backfillCommand,
  COLLECT_USAGE,
  collectCommand,
  type MarketCliDeps,
  parseBackfillArgs,
  parseCollectArgs,
} from './market/market.cli.js';
import { createPlatformSource } from './platform/index.js';
import { createServices } from './services.js';
import { OUTBOX_USAGE, outboxCommand } from './tracking/delivery/index.js';
import { SecretBox, WEBHOOKS_USAGE, webhooksCommand } from './tracking/index.js';
import { VERSION } from './version.js';

/** What a command reads and writes; stdin defaults to process.stdin (tests pass their own). */
export interface CliIo {
  out: (line: string) => void;
  err: (line: string) => void;
  stdin?: AsyncIterable<string | Buffer | Uint8Array>;
  /** process.stdout when run as the binary: for output streamed with backpressure (events export). */
  stdout?: Writable;
}

interface Command {
  summary: string;
  usage: string;
  run(args: string[], config: Config, out: (line: string) => void, io: CliIo): Promise<number | 'running'>;
}

/** Opens the database (migrating it) and the services for an admin command (accounts only). */
async function withAccountsArgs(
  config: Config,
  out: (line: string) => void,
  fn: (args: string[], deps: Parameters<typeof userCommand>[1]) => Promise<number>,
  args: string[],
): Promise<number> {
  const log = createLogger(config);
  const db = await openDatabase(config, log);
  const kv = await connectKv(config, log);
  const services = createServices({
    config,
    db,
    kv,
    clock: systemClock,
    log,
    jwtSecret: resolveJwtSecret(config),
  });
  try {
    const { accounts, apiKeys } = services.accounts;
    return await fn(args, { accounts, apiKeys, out });
  } finally {
    await services.close();
    await kv.close();
    await db.close();
  }
}

/** Opens the database (migrating it) and the platform source for a market command. */
async function withMarket(
  config: Config,
  out: (line: string) => void,
  fn: (args: string[], deps: MarketCliDeps) => Promise<number>,
  args: string[],
): Promise<number> {
  const log = createLogger(config);
  const db = await openDatabase(config, log);
  const platform = createPlatformSource(config, log);
  try {
    return await fn(args, { db, platform, log, now: systemClock.now(), out });
  } finally {
    await platform.close?.();
    await db.close();
  }
}

const COMMANDS: Record<string, Command> = {
  serve: {
    summary: 'serve the HTTP API (and, embedded, the background jobs)',
    usage: 'svc serve',
    async run(args, config, out) {
      parseArgs({ args, options: {}, strict: true });
      const server = await startServer(config);
      closeOnSignals(server, config.shutdownTimeoutMs);
      out(`svc ${VERSION} listening on ${server.url} (database: ${server.db.engine})`);
      out(
        existsSync(join(config.webDir, 'index.html'))
          ? `  Web app: ${server.url}/ (sign in with an account below)`
          : `  Web app: not built (run npm run build; ${config.webDir} has no index.html)`,
      );
      out(`  API reference: ${server.url}/docs   OpenAPI: ${server.url}/openapi.json`);
      if (server.demo) {
        out('  Demo accounts (embedded mode), one per plan; password (also in DATA_DIR/demo-password):');
        out(`    ${server.demo.password}`);
        for (const a of server.demo.accounts) out(`    ${a.plan.padEnd(10)} ${a.email}`);
        out(
          `  Sign in: curl -X POST ${server.url}/api/auth/login -H 'content-type: application/json' ` +
            `-d '{"email":"${server.demo.accounts[2]?.email}","password":"<password above>"}'`,
        );
      }
      return 'running';
    },
  },
  worker: {
    summary: 'run background jobs only (collector, alerts, ingest consumers)',
    usage: 'svc worker',
    async run(args, config) {
      parseArgs({ args, options: {}, strict: true });
      const worker = await startWorker(config);
      closeOnSignals(worker, config.shutdownTimeoutMs);
      return 'running';
    },
  },
  user: {
    summary: 'create a user, or change the plan of one',
    usage: USER_USAGE,
    run: (args, config, out) => withAccountsArgs(config, out, userCommand, args),
  },
  keys: {
    summary: 'create an API key for a user (prints the secret once)',
    usage: KEYS_USAGE,
    run: (args, config, out) => withAccountsArgs(config, out, keysCommand, args),
  },
  collect: {
    summary: 'collect the market once now and refresh the market views',
    usage: COLLECT_USAGE,
    run: (args, config, out) => {
      parseCollectArgs(args);
      return withMarket(config, out, collectCommand, args);
    },
  },
  backfill: {
    summary: 'write N days of past market history (simulated source only)',
    usage: BACKFILL_USAGE,
    run: (args, config, out) => {
      parseBackfillArgs(args);
      return withMarket(config, out, backfillCommand, args);
    },
  },
  forecast: {
    summary: 'forecast a daily `date,value` series from stdin; prints date,point,lower,upper',
    usage: FORECAST_USAGE,
    run: (args, _config, out, io) =>
      forecastCommand(args, { out, err: io.err, stdin: io.stdin ?? process.stdin }),
  },
  outbox: {
    summary: 'print the alert e-mails in the outbox, newest first (embedded installs without SMTP)',
    usage: OUTBOX_USAGE,
    run: (args, config, out, io) =>
      outboxCommand(args, { out, err: io.err, open: () => openDatabase(config, createLogger(config)) }),
  },
  webhooks: {
    summary: 're-encrypt every webhook secret with the current SECRETS_KEY (after a key rotation)',
    usage: WEBHOOKS_USAGE,
    run: (args, config, out, io) =>
      webhooksCommand(args, {
        out,
        err: io.err,
        open: () => openDatabase(config, createLogger(config)),
        secrets: () => new SecretBox(resolveSecretsKeys(config)),
      }),
  },
  events: {
    summary:
      "print a team's most recent SDK events (ids, type, game, times; no payloads); " +
      '`svc events export` writes a game’s raw events as NDJSON or CSV',
    usage: EVENTS_USAGE,
    async run(args, config, out, io) {
      const open = () => openDatabase(config, createLogger(config));
      if (args[0] !== 'export') return eventsCommand(args, { out, err: io.err, open });
      // The export is analytics code (ingest must not import analytics), with its own usage line.
      try {
        return await exportCommand(args, { out, err: io.err, open, ...(io.stdout && { stdout: io.stdout }) });
      } catch (err) {
        if (!(err instanceof CliUsageError)) throw err;
        io.err(`svc events export: ${err.message}\nusage: ${EXPORT_USAGE}`);
        return 2;
      }
    },
  },
  doctor: {
    summary: 'check the configuration and each engine, one line each; exit 1 when a check fails',
    usage: DOCTOR_USAGE,
    run: (args, config, out) => doctorCommand(args, { config, out, now: () => systemClock.now() }),
  },
  migrate: {
    summary: 'apply pending database migrations (--status: list them, change nothing)',
    usage: 'svc migrate [--status]',
    async run(args, config, out) {
      const { values } = parseArgs({
        args,
        options: { status: { type: 'boolean', default: false } },
        strict: true,
      });
      const db = await connectDb(config);
      try {
        const migrations = loadMigrations();
        if (values.status) {
          const status = await migrationStatus(db, migrations);
          for (const m of migrations)
            out(`${status.applied.includes(m.version) ? 'applied' : 'pending'}  ${m.file}`);
          return 0;
        }
        const log = createLogger(config);
        const applied = await migrate(db, {
          migrations,
          onApplied: (m, ms) => log.info({ migration: m.file, ms: Math.round(ms) }, 'migration applied'),
        });
        out(
          applied.length === 0
            ? `database is up to date (${migrations.length} migrations)`
            : `applied ${applied.length} migration(s)`,
        );
        return 0;
      } finally {
        await db.close();
      }
    },
  },
};

function help(): string {
  const width = Math.max(...Object.values(COMMANDS).map((c) => c.usage.length));
  return [
    `svc ${VERSION}: game analytics and market intelligence for Roblox creators`,
    '',
    'Usage: svc <command> [options]   (configuration comes from environment variables; see README)',
    '',
    ...Object.values(COMMANDS).map((c) => `  ${c.usage.padEnd(width)}  ${c.summary}`),
    `  ${'svc help'.padEnd(width)}  this text`,
  ].join('\n');
}

export async function runCli(
  argv: string[],
  env: Readonly<Record<string, string | undefined>>,
  io: CliIo,
): Promise<number | 'running'> {
  const [name = 'serve', ...rest] = argv;
  if (name === 'help' || name === '--help' || name === '-h') {
    io.out(help());
    return 0;
  }
  if (name === '--version' || name === 'version') {
    io.out(VERSION);
    return 0;
  }
  const command = COMMANDS[name];
  if (!command) {
    io.err(`svc: unknown command "${name}"\n\n${help()}`);
    return 2;
  }
  try {
    const config = loadConfig(env);
    return await command.run(rest, config, io.out, io);
  } catch (err) {
    if (err instanceof ConfigError) {
      io.err(`svc: invalid configuration: ${err.message}`);
      return 2;
    }
    if (err instanceof CliUsageError) {
      io.err(`svc ${name}: ${err.message}\nusage: ${command.usage}`);
      return 2;
    }
    if (err instanceof TypeError && (err as { code?: string }).code?.startsWith('ERR_PARSE_ARGS')) {
      io.err(`svc ${name}: ${err.message}\nusage: ${command.usage}`);
      return 2;
    }
    if (err instanceof MigrationError) {
      io.err(`svc: ${err.message}`);
      return 1;
    }
    io.err(`svc ${name} failed: ${err instanceof Error ? err.message : String(err)}`);
    return 1;
  }
}

function isEntryPoint(): boolean {
  const invoked = process.argv[1];
  if (!invoked) return false;
  try {
    return realpathSync(invoked) === fileURLToPath(import.meta.url);
  } catch {
    return false;
  }
}

if (isEntryPoint()) {
  runCli(process.argv.slice(2), process.env, {
    out: (line) => process.stdout.write(`${line}\n`),
    err: (line) => process.stderr.write(`${line}\n`),
    stdout: process.stdout,
  }).then((code) => {
    if (code !== 'running') process.exitCode = code;
  });
}
