/**
 * Every SQL statement of the ingest pipeline. Batches are written with one statement each
 * (COPY for events, unnest for the rest), never one statement per event.
 */
import type { CopyData, Queryable, Statement } from '../db/index.js';

/** One event as stored (and as carried by the queue: plain JSON, dates as ISO strings). */
export interface EventRow {
  team_id: number;
  key_id: number;
  sdk_version: string | null;
  received_at: string;
  event_id: string;
  ts: string;
  platform: string;
  game_id: string;
  player_id: string;
  session_id: string | null;
  type: string;
  payload: Record<string, unknown>;
  country: string | null;
  /** The stored batch's id (batch.ts newBatchId). */
  batch: number;
}

/** Records the ids; returns those that were new (the rest were seen before, or are being
 * recorded by a concurrent transaction that has now committed). Callers pass them sorted so
 * concurrent batches lock rows in the same order and cannot deadlock. */
export async function insertEventIds(
  q: Queryable,
  teamId: number,
  eventIds: readonly string[],
  receivedAt: Date,
): Promise<Set<string>> {
  const r = await q.query<{ event_id: string }>(
    `INSERT INTO event_ids (team_id, event_id, received_at)
     SELECT $1, id, $3 FROM unnest($2::text[]) AS id
     ON CONFLICT DO NOTHING
     RETURNING event_id`,
    [teamId, eventIds, receivedAt],
  );
  return new Set(r.rows.map((row) => row.event_id));
}

/** What openBatch found: the new event ids, the month's usage so far (read without a lock) and
 * the cached countries of the players asked for. */
export interface Opened {
  fresh: Set<string>;
  used: number;
  countries: Map<string, string>;
}

/**
 * The first statement of a batch's transaction, in one round trip: records the event ids
 * (insertEventIds), reads the month's usage and the players' cached countries
 * (playerCountries), and, when `claim` is given and any id is new, inserts that claim (queued, its
 * events the new ids' count: see insertClaims). `eventIds` sorted, as insertEventIds says, and
 * distinct (the batch's repeats are gone: batch.ts prepare).
 */
export async function openBatch(
  q: Queryable,
  input: {
    teamId: number;
    eventIds: readonly string[];
    receivedAt: Date;
    month: string;
    players: readonly string[];
    claim?: number | undefined;
  },
): Promise<Opened> {
  const r = await q.query<{
    fresh: string[] | null;
    used: number | null;
    countries: Record<string, string> | null;
  }>(
    // svc_insert_event_ids (migration 0048): NULL when every id was new (the usual case: no list
    // to send back and parse, the caller keeps its own), else the new ones.
    `WITH fresh AS (
       SELECT svc_insert_event_ids($1, $2::text[], $3) AS ids
     ), counted AS (
       SELECT ids, coalesce(cardinality(ids), cardinality($2::text[])) AS n FROM fresh
     ), claim AS (
       INSERT INTO ingest_claims (id, state, events, created_at)
       SELECT $6::bigint, 'queued', n, $3 FROM counted
        WHERE $6::bigint IS NOT NULL AND n > 0
     )
     SELECT (SELECT ids FROM counted) AS fresh,
            (SELECT used FROM ingest_usage WHERE team_id = $1 AND month = $4::date)::float8 AS used,
            (SELECT json_object_agg(player_id, country) FROM player_countries
              WHERE team_id = $1 AND player_id = ANY($5::text[])) AS countries`,
    [input.teamId, input.eventIds, input.receivedAt, input.month, input.players, input.claim ?? null],
  );
  const row = r.rows[0]!;
  return {
    fresh: new Set(row.fresh ?? input.eventIds),
    used: Number(row.used ?? 0),
    countries: new Map(Object.entries(row.countries ?? {})),
  };
}

/** Forgets ids recorded in this transaction whose events the quota then refused (so a retry next
 * month is not deduped). */
export async function deleteEventIds(
  q: Queryable,
  teamId: number,
  eventIds: readonly string[],
): Promise<void> {
  if (eventIds.length === 0) return;
  await q.query('DELETE FROM event_ids WHERE team_id = $1 AND event_id = ANY($2::text[])', [
    teamId,
    eventIds,
  ]);
}

/** Charges up to `wanted` events against the month's quota and returns how many were granted.
 * The row lock (FOR UPDATE in the CTE) serialises concurrent batches of one team, and
 * min(wanted, quota - used) keeps `used` from ever passing the quota. */
export async function chargeQuota(
  q: Queryable,
  teamId: number,
  month: string,
  wanted: number,
  quota: number,
): Promise<number> {
  await q.query('INSERT INTO ingest_usage (team_id, month, used) VALUES ($1, $2, 0) ON CONFLICT DO NOTHING', [
    teamId,
    month,
  ]);
  const r = await q.query<{ granted: number }>(
    `WITH cur AS (
       SELECT used FROM ingest_usage WHERE team_id = $1 AND month = $2 FOR UPDATE
     )
     UPDATE ingest_usage u
        SET used = u.used + LEAST($3::bigint, GREATEST($4::bigint - cur.used, 0))
       FROM cur
      WHERE u.team_id = $1 AND u.month = $2
      RETURNING (u.used - cur.used)::int AS granted`,
    [teamId, month, wanted, quota],
  );
  return r.rows[0]?.granted ?? 0;
}

/** SQLSTATE of svc_charge_ingest_quota when the batch no longer fits. */
export const QUOTA_RACE_SQLSTATE = 'SVQ01';

/** Whether `err` is the database refusing chargeQuotaAllStatement: concurrent batches took the
 * room (the transaction was undone). */
export function isQuotaRace(err: unknown): boolean {
  return (err as { code?: unknown } | null)?.code === QUOTA_RACE_SQLSTATE;
}

/** Charges all `wanted` events or none: adds them when the month's usage stays within `quota`,
 * else fails with QUOTA_RACE_SQLSTATE (aborting the transaction). Every batch of a team waits on
 * this row's lock until its transaction ends, so it is sent last, together with the COMMIT
 * (Tx.commitWith). */
export function chargeQuotaAllStatement(
  teamId: number,
  month: string,
  wanted: number,
  quota: number,
): Statement {
  return {
    sql: 'SELECT svc_charge_ingest_quota($1, $2::date, $3::bigint, $4::bigint)',
    params: [teamId, month, wanted, quota],
  };
}

/** Remembers each player's latest session_start country (null: nothing to remember). */
export function upsertPlayerCountriesStatement(
  teamId: number,
  entries: readonly { player_id: string; country: string }[],
  now: Date,
): Statement | null {
  if (entries.length === 0) return null;
  // In player order, so concurrent batches lock shared players' rows in one order (no deadlock).
  const sorted = [...entries].sort((a, b) =>
    a.player_id < b.player_id ? -1 : a.player_id > b.player_id ? 1 : 0,
  );
  return {
    sql: `INSERT INTO player_countries (team_id, player_id, country, updated_at)
          SELECT $1, p, c, $4 FROM unnest($2::text[], $3::text[]) AS t(p, c)
          ON CONFLICT (team_id, player_id) DO UPDATE SET country = EXCLUDED.country, updated_at = EXCLUDED.updated_at`,
    params: [teamId, sorted.map((e) => e.player_id), sorted.map((e) => e.country), now],
  };
}

export async function upsertPlayerCountries(
  q: Queryable,
  teamId: number,
  entries: readonly { player_id: string; country: string }[],
  now: Date,
): Promise<void> {
  const st = upsertPlayerCountriesStatement(teamId, entries, now);
  if (st) await q.query(st.sql, st.params);
}

export async function playerCountries(
  q: Queryable,
  teamId: number,
  playerIds: readonly string[],
): Promise<Map<string, string>> {
  if (playerIds.length === 0) return new Map();
  const r = await q.query<{ player_id: string; country: string }>(
    'SELECT player_id, country FROM player_countries WHERE team_id = $1 AND player_id = ANY($2::text[])',
    [teamId, playerIds],
  );
  return new Map(r.rows.map((row) => [row.player_id, row.country]));
}

const EVENT_COLUMNS =
  'team_id, key_id, sdk_version, received_at, event_id, ts, platform, game_id, player_id, session_id, type, payload, country, batch';
/** The columns of an outbox row's event `e`; a row queued before events had a batch id takes its
 * outbox row's id, negated (random ids are positive). */
const EVENT_COLUMNS_OF_E = EVENT_COLUMNS.split(', ')
  .map((c) => (c === 'batch' ? 'COALESCE(e.batch, -claimed.id)' : `e.${c}`))
  .join(', ');
const COPY_EVENTS = `COPY events (${EVENT_COLUMNS}) FROM STDIN`;
const COPY_SPECIAL = /[\\\t\n\r]/;

/** A text value in COPY's text format: backslash, tab, newline and carriage return escaped. */
function copyText(v: string | null): string {
  if (v === null) return '\\N';
  if (!COPY_SPECIAL.test(v)) return v;
  return v.replace(/[\\\t\n\r]/g, (c) =>
    c === '\\' ? '\\\\' : c === '\t' ? '\\t' : c === '\n' ? '\\n' : '\\r',
  );
}

/** A piece of COPY text is closed once it holds this many characters (a piece ends with a whole
 * row): at most 64 KB as a string plus one row, a regular heap object (CopyData). */
const COPY_PIECE_CHARS = 32_768;

/** The rows in COPY's text format, one line each, columns in EVENT_COLUMNS order, in pieces of whole
 * rows (CopyData). */
export function eventsCopy(rows: readonly EventRow[]): string[] {
  const pieces: string[] = [];
  let out = '';
  for (const r of rows) {
    // JSON text holds no raw tab or line break (JSON escapes them), only backslashes to double.
    const payload = JSON.stringify(r.payload);
    out += `${r.team_id}\t${r.key_id}\t${copyText(r.sdk_version)}\t${r.received_at}\t${copyText(r.event_id)}\t${r.ts}\t${copyText(r.platform)}\t${copyText(r.game_id)}\t${copyText(r.player_id)}\t${copyText(r.session_id)}\t${copyText(r.type)}\t${payload.includes('\\') ? payload.replaceAll('\\', '\\\\') : payload}\t${copyText(r.country)}\t${r.batch}\n`;
    if (out.length >= COPY_PIECE_CHARS) {
      pieces.push(out);
      out = '';
    }
  }
  if (out !== '') pieces.push(out);
  return pieces;
}

/** eventsCopy as one text. */
export function eventsCopyText(rows: readonly EventRow[]): string {
  return eventsCopy(rows).join('');
}

/** Inserts a batch with one COPY. Not idempotent by itself: callers store a batch once, in the
 * transaction that records its event ids (sync) or deletes its outbox row (the queue writer). */
export async function insertEvents(q: Queryable, rows: readonly EventRow[]): Promise<void> {
  if (rows.length === 0) return;
  await q.copyIn(COPY_EVENTS, eventsCopy(rows));
}

/** Creates the month's partition unless it exists. DDL takes no parameters: the name and bounds
 * are built from integers only (year, month), never from input text. */
export async function createMonthPartition(q: Queryable, year: number, month: number): Promise<void> {
  if (!Number.isInteger(year) || !Number.isInteger(month) || month < 1 || month > 12) {
    throw new RangeError('invalid partition month');
  }
  const next = month === 12 ? { y: year + 1, m: 1 } : { y: year, m: month + 1 };
  const pad = (n: number) => String(n).padStart(2, '0');
  await q.exec(
    `CREATE TABLE IF NOT EXISTS events_p${year}${pad(month)} PARTITION OF events
       FOR VALUES FROM ('${year}-${pad(month)}-01 00:00:00+00') TO ('${next.y}-${pad(next.m)}-01 00:00:00+00')`,
  );
}

/** One sdk_rollup_inbox row: a batch's events of one (platform, game, UTC day). */
export type RollupKey = [
  team: number,
  platform: string,
  game: string,
  day: string,
  receivedAt: string,
  batch: number,
];

/** The distinct rollup keys of `rows` (what rollupInboxStatement queues). */
export function rollupKeys(rows: readonly EventRow[]): RollupKey[] {
  const keys = new Map<string, RollupKey>();
  for (const r of rows) {
    const day = r.ts.slice(0, 10);
    keys.set(
      `${r.team_id}\u0000${r.platform}\u0000${r.game_id}\u0000${day}\u0000${r.received_at}\u0000${r.batch}`,
      [r.team_id, r.platform, r.game_id, day, r.received_at, r.batch],
    );
  }
  return [...keys.values()];
}

/** Queues batches for the analytics rollups (null: no keys): one sdk_rollup_inbox row per batch and
 * (platform, game, UTC day), which the rollup job folds in and deletes. Plain inserts: concurrent
 * batches share no row. */
export function rollupInboxStatement(keys: readonly RollupKey[]): Statement | null {
  if (keys.length === 0) return null;
  return {
    sql: `INSERT INTO sdk_rollup_inbox (team_id, platform, game_id, day, received_at, batch)
          SELECT * FROM unnest($1::bigint[], $2::text[], $3::text[], $4::date[], $5::timestamptz[], $6::bigint[])`,
    params: [
      keys.map((k) => k[0]),
      keys.map((k) => k[1]),
      keys.map((k) => k[2]),
      keys.map((k) => k[3]),
      keys.map((k) => k[4]),
      keys.map((k) => k[5]),
    ],
  };
}

/** The COPY of insertEvents, for rows already in COPY text (eventsCopy): what the JetStream writer
 * makes of its messages. */
export async function insertEventsCopy(q: Queryable, copy: CopyData): Promise<void> {
  const empty = typeof copy === 'string' ? copy === '' : copy.every((p) => p.length === 0);
  if (!empty) await q.copyIn(COPY_EVENTS, copy);
}

/** Records claims of batches about to be published (state queued), in the request's transaction,
 * before the publish: see migration 0040. */
export async function insertClaims(
  q: Queryable,
  claims: readonly { id: number; events: number }[],
  now: Date,
): Promise<void> {
  await q.query(
    `INSERT INTO ingest_claims (id, state, events, created_at)
     SELECT id, 'queued', events, $3 FROM unnest($1::bigint[], $2::int[]) AS c(id, events)`,
    [claims.map((c) => c.id), claims.map((c) => c.events), now],
  );
}

/** Forgets claims (the request fell back to storing its rows itself): their messages, if the
 * stream has them after all, are dropped by the writer. */
export async function deleteClaims(q: Queryable, ids: readonly number[]): Promise<void> {
  if (ids.length === 0) return;
  await q.query('DELETE FROM ingest_claims WHERE id = ANY($1::bigint[])', [ids]);
}

/**
 * The writer's side of migration 0040, in its transaction: which of the messages' claims are queued
 * (to store now). Claims it does not find are inserted as void, which waits for a request still
 * holding one (its commit makes it queued, its rollback lets the insert through); a claim held by
 * another writer waits for that writer. Every claim named is then deleted with the transaction.
 */
export async function takeClaims(q: Queryable, ids: readonly number[], now: Date): Promise<Set<number>> {
  if (ids.length === 0) return new Set();
  const sorted = [...new Set(ids)].sort((a, b) => a - b);
  const r = await q.query<{ id: string | number; state: string }>(
    `INSERT INTO ingest_claims (id, state, events, created_at)
     SELECT id, 'void', 0, $2 FROM unnest($1::bigint[]) AS id
     ON CONFLICT (id) DO UPDATE SET events = ingest_claims.events
     RETURNING id, state`,
    [sorted, now],
  );
  await q.query('DELETE FROM ingest_claims WHERE id = ANY($1::bigint[])', [sorted]);
  return new Set(r.rows.filter((row) => row.state === 'queued').map((row) => Number(row.id)));
}

/** Batches accepted for JetStream before `before` and still not stored (the stream lost them, or
 * no writer has run since): count and events. */
export async function staleClaims(q: Queryable, before: Date): Promise<{ batches: number; events: number }> {
  const r = await q.query<{ batches: number; events: number }>(
    `SELECT count(*)::int AS batches, COALESCE(sum(events), 0)::int AS events
       FROM ingest_claims WHERE state = 'queued' AND created_at < $1`,
    [before],
  );
  return { batches: Number(r.rows[0]!.batches), events: Number(r.rows[0]!.events) };
}

/** Keeps an accepted batch (its rows as JSON text) until a writer moves it into `events`;
 * returns the row's id. */
export async function insertOutbox(
  q: Queryable,
  rowsJson: string,
  events: number,
  now: Date,
): Promise<number> {
  const r = await q.query<{ id: number }>(
    'INSERT INTO ingest_outbox (created_at, rows, events) VALUES ($1, $2, $3) RETURNING id',
    [now, rowsJson, events],
  );
  return Number(r.rows[0]!.id);
}

/** Which outbox batches a writer takes: these ids (a queue message named them), or the oldest
 * waiting ones (`limit` batches, only those created before `before` when given). Rows another
 * writer holds are skipped, never waited for. */
export type OutboxSelection = { ids: readonly number[] } | { limit: number; before?: Date };

/**
 * Moves the selected batches into `events` and deletes their outbox rows, in one statement: the
 * JSON never leaves the server, and the events of a batch are stored exactly when its row is
 * deleted (a batch already moved has no row: a redelivered message stores nothing), and it is
 * queued for the analytics rollups (sdk_rollup_inbox). Run it in a transaction; the months' partitions exist (the
 * request created them before accepting).
 */
export async function moveOutbox(
  q: Queryable,
  selection: OutboxSelection,
): Promise<{ batches: number; events: number }> {
  const [where, params]: [string, unknown[]] =
    'ids' in selection
      ? ['id = ANY($1::bigint[])', [selection.ids]]
      : selection.before
        ? [
            'id IN (SELECT id FROM ingest_outbox WHERE created_at < $2 ORDER BY id LIMIT $1 FOR UPDATE SKIP LOCKED)',
            [selection.limit, selection.before],
          ]
        : [
            'id IN (SELECT id FROM ingest_outbox ORDER BY id LIMIT $1 FOR UPDATE SKIP LOCKED)',
            [selection.limit],
          ];
  if ('ids' in selection && selection.ids.length === 0) return { batches: 0, events: 0 };
  const r = await q.query<{ batches: number; events: number }>(
    `WITH claimed AS (
       DELETE FROM ingest_outbox WHERE ${where} RETURNING id, rows
     ), stored AS (
       INSERT INTO events (${EVENT_COLUMNS})
       SELECT ${EVENT_COLUMNS_OF_E}
         FROM claimed, json_populate_recordset(NULL::events, claimed.rows::json) AS e
       RETURNING team_id, platform, game_id, ts, received_at, batch
     ), queued AS (
       INSERT INTO sdk_rollup_inbox (team_id, platform, game_id, day, received_at, batch)
       SELECT DISTINCT team_id, platform, game_id, (ts AT TIME ZONE 'UTC')::date, received_at, batch FROM stored
     )
     SELECT (SELECT count(*) FROM claimed)::int AS batches, (SELECT count(*) FROM stored)::int AS events`,
    params,
  );
  const row = r.rows[0]!;
  return { batches: Number(row.batches), events: Number(row.events) };
}

/** Events waiting in the outbox (the embedded queue's depth). */
export async function outboxDepth(q: Queryable): Promise<number> {
  const r = await q.query<{ n: number }>('SELECT COALESCE(sum(events), 0)::int AS n FROM ingest_outbox');
  return Number(r.rows[0]!.n);
}

export interface RecentEventRow {
  event_id: string;
  type: string;
  platform: string;
  game_id: string;
  player_id: string;
  session_id: string | null;
  ts: Date;
  received_at: Date;
  country: string | null;
  sdk_version: string | null;
  payload: Record<string, unknown>;
}

export async function recentEvents(q: Queryable, teamId: number, limit: number): Promise<RecentEventRow[]> {
  const r = await q.query<RecentEventRow>(
    `SELECT event_id, type, platform, game_id, player_id, session_id, ts, received_at, country,
            sdk_version, payload
       FROM events WHERE team_id = $1
      ORDER BY received_at DESC, event_id DESC
      LIMIT $2`,
    [teamId, limit],
  );
  return r.rows;
}
