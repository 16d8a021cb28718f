/**
 * Vitest global setup: finds the engines the engine tests use. A variable that is set
 * (DATABASE_URL, REDIS_URL, NATS_URL; set it empty to leave an engine out) is kept; an unset one is
 * set when the service answers at its usual local address, so `npm test` uses the PostgreSQL, Redis
 * and NATS of a developer machine without any configuration. Only 127.0.0.1 is ever probed.
 *
 * Runs in the main process before the test workers start; they inherit process.env. What could not
 * be used is left for the notices reporter (test/setup/notices.ts), which prints one line about it.
 *
 * It also makes the migrated templates the test databases are copied from (test/helpers/
 * templates.ts) and, when the run ends, drops the run's PostgreSQL databases.
 */
import { Socket } from 'node:net';
import pg from 'pg';
import {
  dropRunDatabases,
  PG_TEMPLATE_VARIABLE,
  PGLITE_TEMPLATE_VARIABLE,
  pgliteTemplate,
  postgresTemplate,
  RUN_VARIABLE,
  templateKey,
} from '../helpers/templates.js';

export interface EngineProbe {
  /** What the line names: PostgreSQL, Redis, NATS. */
  name: string;
  variable: 'DATABASE_URL' | 'REDIS_URL' | 'NATS_URL';
  /** The usual local address. */
  url: string;
  port: number;
}

export const LOCAL_ENGINES: readonly EngineProbe[] = [
  {
    name: 'PostgreSQL',
    variable: 'DATABASE_URL',
    url: 'postgres://postgres@127.0.0.1:5432/test',
    port: 5432,
  },
  { name: 'Redis', variable: 'REDIS_URL', url: 'redis://127.0.0.1:6379', port: 6379 },
  { name: 'NATS', variable: 'NATS_URL', url: 'nats://127.0.0.1:4222', port: 4222 },
];

/** Where the reporter finds the engines left out: a JSON array of {name, variable, why}. */
export const NOTICE_VARIABLE = 'SVC_TEST_ENGINES_MISSING';
export interface EngineMissing {
  name: string;
  variable: string;
  why: string;
}

const HOST = '127.0.0.1';
const CONNECT_MS = 300;
const ANSWER_MS = 2_000;

type Reached = { ok: true; line: string } | { ok: false; why: string };

/**
 * Opens a TCP connection to 127.0.0.1:port (within CONNECT_MS). With `expectLine`, then sends
 * `send` (if any) and resolves with the first line the server writes (within ANSWER_MS).
 */
function tcp(port: number, expectLine: boolean, send?: string): Promise<Reached> {
  const at = `${HOST}:${port}`;
  return new Promise((resolve) => {
    const socket = new Socket();
    let buffered = '';
    let settled = false;
    const done = (r: Reached) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      socket.destroy();
      resolve(r);
    };
    const unreachable = (why: string) => done({ ok: false, why: `not reachable at ${at} (${why})` });
    let timer = setTimeout(() => unreachable(`no connection within ${CONNECT_MS} ms`), CONNECT_MS);
    socket.once('error', (err: NodeJS.ErrnoException) => unreachable(err.code ?? err.message));
    socket.once('close', () => done({ ok: false, why: `at ${at} closed the connection` }));
    socket.once('connect', () => {
      if (!expectLine) return done({ ok: true, line: '' });
      clearTimeout(timer);
      timer = setTimeout(
        () => done({ ok: false, why: `at ${at} sent no reply within ${ANSWER_MS} ms` }),
        ANSWER_MS,
      );
      if (send !== undefined) socket.write(send);
    });
    socket.on('data', (chunk: Buffer) => {
      buffered += chunk.toString('latin1');
      const end = buffered.indexOf('\r\n');
      if (end >= 0) done({ ok: true, line: buffered.slice(0, end) });
    });
    socket.connect(port, HOST);
  });
}

/** Why the engine at `probe.url` cannot be used, or undefined when it can. */
export async function unusable(probe: EngineProbe): Promise<string | undefined> {
  const at = `${HOST}:${probe.port}`;
  if (probe.variable === 'DATABASE_URL') {
    const open = await tcp(probe.port, false);
    if (!open.ok) return open.why;
    // A port that answers is not enough: the tests need this role and database (no password).
    const client = new pg.Client({ connectionString: probe.url, connectionTimeoutMillis: ANSWER_MS });
    client.on('error', () => {});
    try {
      await client.connect();
      await client.query('SELECT 1');
      return undefined;
    } catch (err) {
      return `at ${at} refused ${probe.url} (${(err as Error).message})`;
    } finally {
      await client.end().catch(() => {});
    }
  }
  if (probe.variable === 'REDIS_URL') {
    const r = await tcp(probe.port, true, 'PING\r\n');
    if (!r.ok) return r.why;
    return r.line === '+PONG'
      ? undefined
      : `at ${at} answered PING with ${JSON.stringify(r.line.slice(0, 60))}`;
  }
  // NATS greets every client with INFO {…}; the ingest queue needs JetStream.
  const r = await tcp(probe.port, true);
  if (!r.ok) return r.why;
  if (!r.line.startsWith('INFO ')) return `at ${at} is not a NATS server`;
  return /"jetstream"\s*:\s*true/.test(r.line) ? undefined : `at ${at} runs without JetStream (-js)`;
}

export default async function setup(): Promise<() => Promise<void>> {
  const missing: EngineMissing[] = [];
  await Promise.all(
    LOCAL_ENGINES.map(async (probe) => {
      const set = process.env[probe.variable];
      if (set !== undefined) {
        if (set === '')
          missing.push({
            name: probe.name,
            variable: probe.variable,
            why: `left out (${probe.variable} is empty)`,
          });
        return;
      }
      const why = await unusable(probe);
      if (why === undefined) process.env[probe.variable] = probe.url;
      else missing.push({ name: probe.name, variable: probe.variable, why });
    }),
  );
  const order = LOCAL_ENGINES.map((p) => p.name);
  missing.sort((a, b) => order.indexOf(a.name) - order.indexOf(b.name));
  if (missing.length) process.env[NOTICE_VARIABLE] = JSON.stringify(missing);
  else delete process.env[NOTICE_VARIABLE];

  const run = Date.now().toString(36);
  process.env[RUN_VARIABLE] = run;
  const key = templateKey();
  const databaseUrl = process.env.DATABASE_URL || undefined;
  const [pgliteFile, pgName] = await Promise.all([
    pgliteTemplate(key),
    databaseUrl ? postgresTemplate(databaseUrl, key) : undefined,
  ]);
  process.env[PGLITE_TEMPLATE_VARIABLE] = pgliteFile;
  if (pgName) process.env[PG_TEMPLATE_VARIABLE] = pgName;
  else delete process.env[PG_TEMPLATE_VARIABLE];

  return async () => {
    if (databaseUrl) await dropRunDatabases(databaseUrl, run);
  };
}
