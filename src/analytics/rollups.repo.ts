/**
 * SQL of the rollup job: fold the batches ingest queued (sdk_rollup_inbox) into the rollups, and
 * rebuild whole the days marked for it (events_touched: a repair, such as migration 0030's). The
 * read side's only statements on `events` besides the export: ingest writes the table, analytics
 * reads it. The statements' shared shape: rollup.source.ts.
 */
import type { Queryable, Tx } from '../db/index.js';
import { EVENT_TYPES } from '../ingest/index.js';
import {
  AMOUNT,
  CREATE_FOLD_TABLE,
  CURRENCY,
  clearDays,
  DAY_KEY,
  FOLDED,
  prevDaysSql,
  ROW_KEY,
  type RollupSql,
} from './rollup.source.js';
import { BRAND_ROLLUP } from './views/brand.rollup.repo.js';
import { EXPERIMENT_ROLLUP } from './views/experiments.rollup.repo.js';
import { LEVEL_ROLLUP } from './views/levels.rollup.repo.js';
import { MONEY_ROLLUP } from './views/money.rollup.repo.js';
import { QUALITY_ROLLUP } from './views/quality.rollup.repo.js';

/** A (team, platform, game, UTC day) marked to be rebuilt whole. */
export interface TouchedDay {
  team_id: number;
  platform: string;
  game_id: string;
  day: string;
  version: number;
}

/** Claims up to `limit` days, oldest day first: unclaimed ones, or claims older than `staleBefore`
 * (a job that died). */
export async function claimTouchedDays(
  q: Queryable,
  now: Date,
  staleBefore: Date,
  limit: number,
): Promise<TouchedDay[]> {
  const r = await q.query<TouchedDay & { day: string }>(
    `UPDATE events_touched t SET claimed_at = $1
      WHERE (team_id, platform, game_id, day) IN (
        SELECT team_id, platform, game_id, day FROM events_touched
         WHERE claimed_at IS NULL OR claimed_at < $2
         ORDER BY day, team_id, platform, game_id
         LIMIT $3 FOR UPDATE SKIP LOCKED)
      RETURNING team_id, platform, game_id, to_char(day, 'YYYY-MM-DD') AS day, version`,
    [now, staleBefore, limit],
  );
  return r.rows.map((row) => ({ ...row, team_id: Number(row.team_id), version: Number(row.version) }));
}

/** Done with `key`: deleted when no event arrived since the claim, else released for another run. */
export async function releaseTouchedDay(q: Queryable, key: TouchedDay): Promise<void> {
  const params = [key.team_id, key.platform, key.game_id, key.day, key.version];
  const deleted = await q.query(
    `DELETE FROM events_touched
      WHERE team_id = $1 AND platform = $2 AND game_id = $3 AND day = $4 AND version = $5`,
    params,
  );
  if (deleted.rowCount === 0) {
    await q.query(
      `UPDATE events_touched SET claimed_at = NULL
        WHERE team_id = $1 AND platform = $2 AND game_id = $3 AND day = $4`,
      params.slice(0, 4),
    );
  }
}

/** Marks days to be rebuilt whole by the next run (a day being rebuilt is rebuilt again). */
export async function markDaysForRebuild(
  q: Queryable,
  days: readonly Omit<TouchedDay, 'version'>[],
): Promise<void> {
  const unique = new Map(
    days.map((d) => [`${d.team_id}\u0000${d.platform}\u0000${d.game_id}\u0000${d.day}`, d]),
  );
  // Sorted: concurrent markers lock shared rows in one order.
  const sorted = [...unique.entries()].sort(([a], [b]) => (a < b ? -1 : 1)).map(([, d]) => d);
  await q.query(
    `INSERT INTO events_touched AS t (team_id, platform, game_id, day)
     SELECT * FROM unnest($1::bigint[], $2::text[], $3::text[], $4::date[])
     ON CONFLICT (team_id, platform, game_id, day) DO UPDATE SET version = t.version + 1
       WHERE t.claimed_at IS NOT NULL`,
    [
      sorted.map((d) => d.team_id),
      sorted.map((d) => d.platform),
      sorted.map((d) => d.game_id),
      sorted.map((d) => d.day),
    ],
  );
}

/** Work waiting for the rollup job: queued batches' (platform, game, day) parts and days to
 * rebuild (what tests and health checks read). */
export async function pendingRollups(q: Queryable): Promise<number> {
  const r = await q.query<{ n: number }>(
    'SELECT ((SELECT count(*) FROM sdk_rollup_inbox) + (SELECT count(*) FROM events_touched))::int AS n',
  );
  return Number(r.rows[0]!.n);
}

/** The platform's virtual currency codes, converted at the DevEx rate; USD is taken as is. */
export const VIRTUAL_CURRENCIES = ['ROBUX', 'R$', 'RBX'] as const;
/** DECISIONS §4 (revenue simulator): 0.0038 USD per Robux. */
export const DEVEX_USD_PER_ROBUX = 0.0038;

/** The activity bit string `bits` (of a.first_day .. a.last_day) with day $4 set to `bit` (B'1' or
 * B'0': a 0 only pads), grown at either end as needed. */
function placeBit(bits: string, bit: string): string {
  return `CASE WHEN $4::date < a.first_day THEN ${bit} || repeat('0', a.first_day - $4::date - 1)::varbit || ${bits}
    WHEN $4::date > a.last_day THEN ${bits} || repeat('0', $4::date - a.last_day - 1)::varbit || ${bit}
    WHEN ${bit} = B'1' THEN set_bit(${bits}, $4::date - a.first_day, 1)
    ELSE ${bits} END`;
}

const USD = `CASE WHEN ${CURRENCY} = 'USD' THEN ${AMOUNT}
  WHEN ${CURRENCY} = ANY($5::text[]) THEN ${AMOUNT} * $6::float8 ELSE 0 END`;
/** The players of the day's events being folded. */
const FOLDED_PLAYERS = `player_id IN (SELECT player_id ${FOLDED})`;

/** The core rollups: players, sessions, purchases, ads, levels (rows per player and day), and what
 * is derived from a day's player rows (first days, activity bits, games, due day stats). */
const CORE: RollupSql = {
  clear: clearDays([
    'sdk_player_days',
    'sdk_session_days',
    'sdk_purchase_days',
    'sdk_ad_days',
    'sdk_level_days',
    'sdk_ad_player_days',
  ]),
  fold: [
    // The day's country is that of the player's latest event with one (country_ts).
    `INSERT INTO sdk_player_days AS p (team_id, platform, game_id, day, player_id, events, country, country_ts,
       purchases, revenue_usd, ad_impressions, ad_revenue_usd)
     SELECT ${ROW_KEY}, player_id, count(*)::int,
       (array_agg(country ORDER BY ts DESC) FILTER (WHERE country IS NOT NULL))[1],
       max(ts) FILTER (WHERE country IS NOT NULL),
       (count(*) FILTER (WHERE type = 'purchase'))::int,
       COALESCE(sum(${USD}) FILTER (WHERE type = 'purchase'), 0),
       (count(*) FILTER (WHERE type = 'ad_impression'))::int,
       COALESCE(sum((payload->>'revenue_usd')::float8) FILTER (WHERE type = 'ad_impression'), 0)
     ${FOLDED}
     GROUP BY player_id
     ON CONFLICT (team_id, game_id, day, platform, player_id) DO UPDATE SET
       events = p.events + EXCLUDED.events,
       country = CASE WHEN EXCLUDED.country IS NOT NULL AND (p.country_ts IS NULL OR EXCLUDED.country_ts >= p.country_ts)
         THEN EXCLUDED.country ELSE p.country END,
       country_ts = GREATEST(p.country_ts, EXCLUDED.country_ts),
       purchases = p.purchases + EXCLUDED.purchases,
       revenue_usd = p.revenue_usd + EXCLUDED.revenue_usd,
       ad_impressions = p.ad_impressions + EXCLUDED.ad_impressions,
       ad_revenue_usd = p.ad_revenue_usd + EXCLUDED.ad_revenue_usd`,
    `INSERT INTO sdk_session_days AS s (team_id, platform, game_id, day, player_id, session_id, first_ts, last_ts,
       end_duration_s, events)
     SELECT ${ROW_KEY}, player_id, session_id, min(ts), max(ts),
       max((payload->>'duration_s')::float8) FILTER (WHERE type = 'session_end'), count(*)::int
     ${FOLDED} AND session_id IS NOT NULL
     GROUP BY player_id, session_id
     ON CONFLICT (team_id, game_id, day, platform, player_id, session_id) DO UPDATE SET
       first_ts = LEAST(s.first_ts, EXCLUDED.first_ts),
       last_ts = GREATEST(s.last_ts, EXCLUDED.last_ts),
       end_duration_s = GREATEST(s.end_duration_s, EXCLUDED.end_duration_s),
       events = s.events + EXCLUDED.events`,
    // Each folded session's previous day with events (0031; rollup.source.ts, PrevDay).
    prevDaysSql(
      'sdk_session_days',
      ['day', 'platform', 'player_id', 'session_id'],
      ['platform', 'player_id', 'session_id'],
      `SELECT $2::text, player_id, session_id ${FOLDED} AND session_id IS NOT NULL`,
      [{ column: 'prev_day', entity: ['platform', 'player_id', 'session_id'] }],
    ),
    `INSERT INTO sdk_purchase_days AS d (team_id, platform, game_id, day, player_id, sku, source, currency, country,
       purchases, units, amount)
     SELECT ${ROW_KEY}, player_id, payload->>'sku', COALESCE(payload->>'source', 'iap'), ${CURRENCY}, country,
       count(*)::int, sum(COALESCE((payload->>'quantity')::bigint, 1))::bigint, sum(${AMOUNT})
     ${FOLDED} AND type = 'purchase'
     GROUP BY player_id, payload->>'sku', COALESCE(payload->>'source', 'iap'), ${CURRENCY}, country
     ON CONFLICT (team_id, game_id, day, platform, player_id, sku, source, currency, country) DO UPDATE SET
       purchases = d.purchases + EXCLUDED.purchases, units = d.units + EXCLUDED.units,
       amount = d.amount + EXCLUDED.amount`,
    `INSERT INTO sdk_ad_days AS d (team_id, platform, game_id, day, format, network, placement, country,
       impressions, revenue_usd, ecpm_count, ecpm_sum)
     SELECT ${ROW_KEY}, payload->>'format', payload->>'network', COALESCE(payload->>'placement', ''), country,
       count(*)::int, sum((payload->>'revenue_usd')::float8),
       (count(*) FILTER (WHERE payload ? 'ecpm'))::int, COALESCE(sum((payload->>'ecpm')::float8), 0)
     ${FOLDED} AND type = 'ad_impression'
     GROUP BY payload->>'format', payload->>'network', COALESCE(payload->>'placement', ''), country
     ON CONFLICT (team_id, game_id, day, platform, format, network, placement, country) DO UPDATE SET
       impressions = d.impressions + EXCLUDED.impressions, revenue_usd = d.revenue_usd + EXCLUDED.revenue_usd,
       ecpm_count = d.ecpm_count + EXCLUDED.ecpm_count, ecpm_sum = d.ecpm_sum + EXCLUDED.ecpm_sum`,
    // attempts_to_done counts the attempts up to the day's first finish (done_ts); attempt_ts keeps
    // their times (all of them while there is no finish), so an earlier finish folded later
    // counts again from them.
    `INSERT INTO sdk_level_days AS d (team_id, platform, game_id, day, player_id, level, attempts, wins, losses,
       quits, completes, done_ts, attempt_ts, attempts_to_done)
     SELECT ${ROW_KEY}, player_id, level, count(*)::int,
       (count(*) FILTER (WHERE result = 'win'))::int, (count(*) FILTER (WHERE result = 'loss'))::int,
       (count(*) FILTER (WHERE result = 'quit'))::int, (count(*) FILTER (WHERE result = 'complete'))::int,
       max(first_done),
       array_agg(ts ORDER BY ts) FILTER (WHERE first_done IS NULL OR ts <= first_done),
       CASE WHEN max(first_done) IS NULL THEN NULL ELSE (count(*) FILTER (WHERE ts <= first_done))::int END
     FROM (
       SELECT player_id, (payload->>'level')::bigint AS level, COALESCE(payload->>'result', 'complete') AS result, ts,
         min(ts) FILTER (WHERE COALESCE(payload->>'result', 'complete') IN ('win', 'complete'))
           OVER (PARTITION BY player_id, (payload->>'level')::bigint) AS first_done
       ${FOLDED} AND type = 'level'
     ) AS l
     GROUP BY player_id, level
     ON CONFLICT (team_id, game_id, day, platform, player_id, level) DO UPDATE SET
       attempts = d.attempts + EXCLUDED.attempts, wins = d.wins + EXCLUDED.wins,
       losses = d.losses + EXCLUDED.losses, quits = d.quits + EXCLUDED.quits,
       completes = d.completes + EXCLUDED.completes,
       done_ts = LEAST(d.done_ts, EXCLUDED.done_ts),
       attempt_ts = ARRAY(SELECT t FROM unnest(d.attempt_ts || EXCLUDED.attempt_ts) AS t
                           WHERE t <= COALESCE(LEAST(d.done_ts, EXCLUDED.done_ts), 'infinity') ORDER BY t),
       attempts_to_done = CASE WHEN LEAST(d.done_ts, EXCLUDED.done_ts) IS NULL THEN NULL
         ELSE (SELECT count(*) FROM unnest(d.attempt_ts || EXCLUDED.attempt_ts) AS t
                WHERE t <= LEAST(d.done_ts, EXCLUDED.done_ts))::int END`,
    // The ads view's per-player split (0019), read when a segment narrows the players.
    `INSERT INTO sdk_ad_player_days AS d (team_id, platform, game_id, day, player_id, format, network, placement,
       impressions, revenue_usd, ecpm_count, ecpm_sum)
     SELECT ${ROW_KEY}, player_id, payload->>'format', payload->>'network',
       COALESCE(payload->>'placement', ''), count(*)::int, sum((payload->>'revenue_usd')::float8),
       (count(*) FILTER (WHERE payload ? 'ecpm'))::int, COALESCE(sum((payload->>'ecpm')::float8), 0)
     ${FOLDED} AND type = 'ad_impression'
     GROUP BY player_id, payload->>'format', payload->>'network', COALESCE(payload->>'placement', '')
     ON CONFLICT (team_id, game_id, day, platform, player_id, format, network, placement) DO UPDATE SET
       impressions = d.impressions + EXCLUDED.impressions, revenue_usd = d.revenue_usd + EXCLUDED.revenue_usd,
       ecpm_count = d.ecpm_count + EXCLUDED.ecpm_count, ecpm_sum = d.ecpm_sum + EXCLUDED.ecpm_sum`,
    // First days only ever move earlier; the first day's country follows that day's row.
    `INSERT INTO sdk_players AS p (team_id, platform, game_id, player_id, first_day, first_country)
     SELECT team_id, platform, game_id, player_id, day, country FROM sdk_player_days d
      WHERE ${DAY_KEY} AND ${FOLDED_PLAYERS}
     ORDER BY player_id
     ON CONFLICT (team_id, game_id, platform, player_id) DO UPDATE
       SET first_day = EXCLUDED.first_day, first_country = EXCLUDED.first_country
       WHERE EXCLUDED.first_day < p.first_day
          OR (EXCLUDED.first_day = p.first_day AND EXCLUDED.first_country IS DISTINCT FROM p.first_country)`,
    `INSERT INTO sdk_games AS g (team_id, platform, game_id, first_day, last_day)
     SELECT ${ROW_KEY}, $4::date WHERE EXISTS (SELECT 1 ${FOLDED})
     ON CONFLICT (team_id, game_id, platform) DO UPDATE
       SET first_day = LEAST(g.first_day, EXCLUDED.first_day), last_day = GREATEST(g.last_day, EXCLUDED.last_day)`,
    // The levels view's first finishes (0017): only ever moved earlier, like sdk_players.
    `INSERT INTO sdk_level_firsts AS f (team_id, platform, game_id, player_id, level, first_done_day)
     SELECT team_id, platform, game_id, player_id, level, day FROM sdk_level_days d
      WHERE ${DAY_KEY} AND attempts_to_done IS NOT NULL
        AND (player_id, level) IN (SELECT player_id, (payload->>'level')::bigint ${FOLDED} AND type = 'level')
     ORDER BY player_id, level
     ON CONFLICT (team_id, game_id, player_id, level, platform) DO UPDATE
       SET first_done_day = EXCLUDED.first_done_day WHERE EXCLUDED.first_done_day < f.first_done_day`,
    // Each player's activity bits (0021), on this platform and on '' (every platform): set, never
    // cleared (a day's events only add players). A day before first_day prepends, after last_day
    // appends; a row that already says all of it is left alone.
    `INSERT INTO sdk_player_activity AS a (team_id, game_id, platform, player_id, first_day, last_day, days, paid,
       countries)
     SELECT $1::bigint, $3::text, p.platform, d.player_id, $4::date, $4::date, B'1',
       CASE WHEN d.purchases > 0 THEN B'1' ELSE B'0' END, ARRAY[COALESCE(d.country, '')]
       FROM sdk_player_days d CROSS JOIN (VALUES ($2::text), ('')) AS p (platform)
      WHERE d.team_id = $1 AND d.platform = $2 AND d.game_id = $3 AND d.day = $4 AND d.${FOLDED_PLAYERS}
      ORDER BY p.platform, d.player_id
     ON CONFLICT (team_id, game_id, platform, player_id) DO UPDATE SET
       days = ${placeBit('a.days', "B'1'")},
       paid = ${placeBit('a.paid', 'EXCLUDED.paid')},
       first_day = LEAST(a.first_day, EXCLUDED.first_day),
       last_day = GREATEST(a.last_day, EXCLUDED.last_day),
       countries = CASE WHEN EXCLUDED.countries[1] = ANY(a.countries) THEN a.countries
         ELSE ARRAY(SELECT DISTINCT c FROM unnest(a.countries || EXCLUDED.countries) AS c ORDER BY c) END
     WHERE NOT ($4::date BETWEEN a.first_day AND a.last_day
       AND get_bit(a.days, $4::date - a.first_day) = 1
       AND (EXCLUDED.paid = B'0' OR get_bit(a.paid, $4::date - a.first_day) = 1)
       AND EXCLUDED.countries[1] = ANY(a.countries))`,
    // The day's stats, and those of the days it moves, are derived next (stats.ts).
    // ($2 is named only because a statement receives the parameters up to the highest it names.)
    `INSERT INTO sdk_stats_due (team_id, game_id, day) SELECT $1::bigint, $3::text, $4::date WHERE $2::text IS NOT NULL
     ON CONFLICT DO NOTHING`,
  ],
  tables: [
    'sdk_games',
    'sdk_player_days',
    'sdk_players',
    'sdk_session_days',
    'sdk_purchase_days',
    'sdk_ad_days',
    'sdk_ad_player_days',
    'sdk_level_days',
    'sdk_level_firsts',
    'sdk_player_activity',
    'sdk_day_stats',
  ],
};

/**
 * Every rollup, in order: the core ones above, then those a view keeps for itself (in its folder,
 * `views/*.rollup.repo.ts`), which may read what the core ones just wrote.
 */
const ROLLUPS: readonly RollupSql[] = [
  CORE,
  LEVEL_ROLLUP,
  MONEY_ROLLUP,
  BRAND_ROLLUP,
  EXPERIMENT_ROLLUP,
  QUALITY_ROLLUP,
];

/** The global lock of rollup writing: folds and rebuilds run one at a time, in any process, so a
 * rebuild never reads events a concurrent fold is adding, and merges never deadlock. */
const LOCK = `SELECT pg_advisory_xact_lock(hashtext('sdk_rollups'))`;

/** Takes the lock and creates the transaction's sdk_fold table. */
async function begin(tx: Tx): Promise<void> {
  await tx.query(LOCK);
  await tx.exec(CREATE_FOLD_TABLE);
}

/** Folds the events of sdk_fold into every rollup, key by key; returns the keys. */
async function foldAll(tx: Tx, wholeDay: boolean): Promise<FoldKey[]> {
  // Most statements read one event type: an index spares each a pass over every folded event. The
  // player index keeps the statements that take the players of a key (FOLDED_PLAYERS) linear when
  // the planner, on statistics from before this fold, expects one row of a rollup and probes the
  // folded events once per row it finds: a nested loop over a sequential scan of sdk_fold took
  // 20,000 × 28,000 comparisons (minutes) for one day of a real data set on PostgreSQL.
  await tx.exec('CREATE INDEX ON sdk_fold (type); CREATE INDEX ON sdk_fold (player_id); ANALYZE sdk_fold');
  const keys = await tx.query<FoldKey>(
    `SELECT DISTINCT team_id, platform, game_id, to_char(day, 'YYYY-MM-DD') AS day FROM sdk_fold
      ORDER BY 4, 1, 2, 3`,
  );
  for (const row of keys.rows) {
    const key = { ...row, team_id: Number(row.team_id) };
    const params = [key.team_id, key.platform, key.game_id, key.day, VIRTUAL_CURRENCIES, DEVEX_USD_PER_ROBUX];
    for (const rollup of ROLLUPS) {
      for (const sql of (wholeDay && rollup.refold) || rollup.fold) {
        // Each statement gets the parameters it names (PostgreSQL refuses unused typed ones).
        await tx.query(sql, params.slice(0, maxParam(sql)));
      }
    }
  }
  return keys.rows;
}

/** A (team, platform, game, UTC day) whose rollups a fold changed. */
export interface FoldKey {
  team_id: number;
  platform: string;
  game_id: string;
  day: string;
}

/** The newest queued batch part's id (0: none): a run folds up to it, not what arrives meanwhile. */
export async function lastQueued(q: Queryable): Promise<number> {
  const r = await q.query<{ id: string | null }>('SELECT max(id) AS id FROM sdk_rollup_inbox');
  return Number(r.rows[0]!.id ?? 0);
}

/**
 * Folds the oldest `limit` queued batch parts (up to id `upTo`) into the rollups and deletes them
 * from the queue, in `tx`: each stored event is counted once. Returns the parts taken (0: none
 * left) and the keys folded.
 */
export async function foldQueued(
  tx: Tx,
  limit: number,
  upTo: number,
): Promise<{ batches: number; keys: FoldKey[] }> {
  await begin(tx);
  // One index probe per batch and partition (team and receipt time, then its id), the batch's part
  // taken apart after: OFFSET 0 keeps the planner from hashing the events of every partition, and
  // from using the game's (team, game, type, ts) index with the day's range, which on a young
  // table's statistics ("empty") looks as cheap and reads the whole day per batch. No sequential
  // scan is wanted, whatever the statistics say.
  await tx.exec('SET LOCAL enable_seqscan = off');
  const r = await tx.query<{ batches: number }>(
    `WITH claimed AS (
       DELETE FROM sdk_rollup_inbox
        WHERE id IN (SELECT id FROM sdk_rollup_inbox WHERE id <= $2 ORDER BY id LIMIT $1 FOR UPDATE SKIP LOCKED)
       RETURNING team_id, platform, game_id, day, received_at, batch
     ), loaded AS (
       INSERT INTO sdk_fold (team_id, platform, game_id, day, event_id, ts, player_id, session_id, type, payload,
         country)
       SELECT c.team_id, c.platform, c.game_id, c.day, e.event_id, e.ts, e.player_id, e.session_id, e.type,
         e.payload, e.country
         FROM claimed c CROSS JOIN LATERAL (
           SELECT game_id, platform, event_id, ts, player_id, session_id, type, payload, country FROM events
            WHERE team_id = c.team_id AND received_at = c.received_at AND batch = c.batch
           OFFSET 0) AS e
        WHERE e.game_id = c.game_id AND e.platform = c.platform
          AND e.ts >= c.day::timestamp AT TIME ZONE 'UTC' AND e.ts < (c.day + 1)::timestamp AT TIME ZONE 'UTC'
       RETURNING 1
     )
     SELECT (SELECT count(*) FROM claimed)::int AS batches, (SELECT count(*) FROM loaded)::int AS events`,
    [limit, upTo],
  );
  await tx.exec('SET LOCAL enable_seqscan = on');
  const batches = Number(r.rows[0]!.batches);
  if (batches === 0) return { batches, keys: [] };
  return { batches, keys: await foldAll(tx, false) };
}

/** Rebuilds every rollup of `key`'s day from its raw events, in `tx`: the day's rows are deleted
 * and its events folded anew, except those of batches still queued (the next fold adds them). */
export async function rebuildDay(tx: Tx, key: TouchedDay): Promise<void> {
  await begin(tx);
  const params = [key.team_id, key.platform, key.game_id, key.day];
  for (const rollup of ROLLUPS) for (const sql of rollup.clear) await tx.query(sql, params);
  const start = new Date(`${key.day}T00:00:00Z`);
  const end = new Date(start.getTime() + 86_400_000);
  await tx.query(
    `INSERT INTO sdk_fold (team_id, platform, game_id, day, event_id, ts, player_id, session_id, type, payload,
       country)
     SELECT team_id, platform, game_id, $4::date, event_id, ts, player_id, session_id, type, payload, country
       FROM events e
      WHERE team_id = $1 AND game_id = $3 AND type = ANY($7::text[]) AND ts >= $5 AND ts < $6 AND platform = $2
        AND NOT EXISTS (
          SELECT 1 FROM sdk_rollup_inbox i
           WHERE i.team_id = e.team_id AND i.received_at = e.received_at AND i.batch = e.batch
             AND i.game_id = e.game_id AND i.platform = e.platform AND i.day = $4::date)`,
    [...params, start, end, EVENT_TYPES],
  );
  await foldAll(tx, true);
}

function maxParam(sql: string): number {
  let max = 0;
  for (const m of sql.matchAll(/\$(\d+)/g)) max = Math.max(max, Number(m[1]));
  return max;
}

/** Every table the rollup job writes. */
export function rollupTables(): string[] {
  return ROLLUPS.flatMap((r) => r.tables);
}

/** The rollups, and `events` (segments and funnels read it). */
const ANALYZED = [...rollupTables(), 'events'];

/** Refreshes the planner's statistics of the rollups (PGlite runs no autovacuum, and PostgreSQL's
 * lags a bulk load: stale counts turn the views' joins into nested loops over every player). */
export async function analyzeRollups(q: Queryable): Promise<void> {
  await q.exec(`ANALYZE ${ANALYZED.join(', ')}`);
}
