/**
 * The database: reachable, its version, and the migrations it has applied against those this
 * build knows. Pending migrations are a FAIL naming them (the fix is `svc migrate`); migrations
 * the database has and this build does not (a newer svc migrated it) are a warning. Nothing is
 * created or migrated here: an embedded install without a database says so instead.
 *
 * PostgreSQL is first reached with one client whose connection timeout is the check's limit, so
 * an unreachable host releases everything within it; only then is the usual pool opened to read
 * the migrations the same way `svc migrate --status` does.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import pg from 'pg';
import {
  type Db,
  loadMigrations,
  type Migration,
  migrationStatus,
  openPglite,
  openPostgres,
} from '../db/index.js';
import { type Check, type CheckContext, describeError, type Finding } from './doctor.js';
import { maskUrl } from './mask.js';

/** The oldest PostgreSQL the migrations are written for. */
const MIN_SERVER_VERSION = 150000;
/** The embedded database is started in-process (WebAssembly): its time is CPU, not a network
 * that may hang, so it gets at least this long on a busy machine. */
const EMBEDDED_LIMIT_MS = 20_000;
/** Pending migrations named on the line; the rest are counted. */
const NAMED = 3;

function listed(files: string[]): string {
  const named = files.slice(0, NAMED).join(', ');
  return files.length > NAMED ? `${named} and ${files.length - NAMED} more` : named;
}

async function migrations(ctx: CheckContext, db: Db, engine: string): Promise<Finding> {
  ctx.step('reading schema_migrations');
  const known: Migration[] = ctx.migrations ?? loadMigrations();
  let status: Awaited<ReturnType<typeof migrationStatus>>;
  try {
    status = await migrationStatus(db, known);
  } catch (err) {
    // An applied file changed since (MigrationError): the server would refuse to start.
    return { status: 'FAIL', detail: `${engine}: ${describeError(err)}` };
  }
  const total = known.length;
  if (status.pending.length > 0) {
    const applied = total - status.pending.length;
    return {
      status: 'FAIL',
      detail:
        `${engine}, ${status.pending.length} of ${total} migrations pending ` +
        `(${listed(status.pending.map((m) => m.file))}; ${applied} applied): run svc migrate`,
    };
  }
  const versions = new Set(known.map((m) => m.version));
  const unknown = status.applied.filter((v) => !versions.has(v));
  if (unknown.length > 0) {
    return {
      status: 'warn',
      detail:
        `${engine}, migrated (${total} of ${total}); it also has migration ${unknown.join(', ')}, ` +
        'which this svc does not know: a newer svc migrated it',
    };
  }
  return { status: 'ok', detail: `${engine}, migrated (${total} of ${total})` };
}

async function postgres(ctx: CheckContext, url: string): Promise<Finding> {
  const at = maskUrl(url);
  ctx.about(`postgres at ${at}`);
  ctx.step('connecting');
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: ctx.limitMs });
  client.on('error', () => {}); // a connection lost after the check ended is nobody's concern
  ctx.defer(() => client.end());
  await client.connect();
  const res = await client.query<{ version: string; num: string }>(
    "SELECT current_setting('server_version') AS version, current_setting('server_version_num') AS num",
  );
  const version = res.rows[0]?.version.split(' ')[0] ?? 'unknown';
  const engine = `postgres ${version} at ${at}`;
  ctx.about(engine);
  if (Number(res.rows[0]?.num) < MIN_SERVER_VERSION) {
    return { status: 'FAIL', detail: `${engine}: svc needs PostgreSQL 15 or newer` };
  }
  const db = await openPostgres(url, { max: 1 });
  ctx.defer(() => db.close());
  return migrations(ctx, db, engine);
}

async function embedded(ctx: CheckContext): Promise<Finding> {
  const dir = join(ctx.config.dataDir, 'pg');
  if (!existsSync(join(dir, 'PG_VERSION'))) {
    return {
      status: 'FAIL',
      detail: `no embedded database in ${dir} yet: svc migrate (or the first svc serve) creates it`,
    };
  }
  ctx.about(`pglite at ${dir}`);
  ctx.step('opening');
  const db = await openPglite(dir);
  ctx.defer(() => db.close());
  const res = await db.query<{ version: string }>("SELECT current_setting('server_version') AS version");
  const version = res.rows[0]?.version.split(' ')[0] ?? 'unknown';
  const engine = `pglite (PostgreSQL ${version}) at ${dir}`;
  ctx.about(engine);
  return migrations(ctx, db, engine);
}

export const databaseCheck: Check = {
  name: 'database',
  limitMs: (deps) => (deps.config.databaseUrl ? deps.timeoutMs : Math.max(deps.timeoutMs, EMBEDDED_LIMIT_MS)),
  run: (ctx) => (ctx.config.databaseUrl ? postgres(ctx, ctx.config.databaseUrl) : embedded(ctx)),
};
