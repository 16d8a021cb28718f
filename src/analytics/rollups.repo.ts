/**
 * SQL of the rollup job: claim the days ingest marked (events_touched), rebuild each day's
 * rollups from the raw events, release the day. The read side's only statements on `events`
 * besides the export: ingest writes the table, analytics reads it.
 */
import type { Queryable, Tx } from '../db/index.js';
import { EVENT_TYPES } from '../ingest/index.js';
import { BRAND_REBUILD, BRAND_TABLES } from './views/brand.rollup.repo.js';
import { EXPERIMENT_REBUILD, EXPERIMENT_TABLES } from './views/experiments.rollup.repo.js';
import { LEVEL_REBUILD, LEVEL_TABLES } from './views/levels.rollup.repo.js';
import { MONEY_REBUILD, MONEY_TABLES } from './views/money.rollup.repo.js';
import { QUALITY_REBUILD, QUALITY_TABLES } from './views/quality.rollup.repo.js';

/** A (team, platform, game, UTC day) whose rollups are out of date. */
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

/** Days waiting for the rollup job (what /readyz-style checks and tests read). */
export async function touchedDays(q: Queryable): Promise<number> {
  const r = await q.query<{ n: number }>('SELECT count(*)::int AS n FROM events_touched');
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

const KEY = 'team_id = $1 AND platform = $2 AND game_id = $3 AND day = $4';
/** The day's raw events: the type list lets the (team_id, game_id, type, ts) index range on ts. */
const EVENTS_OF_DAY = `FROM events
  WHERE team_id = $1 AND game_id = $3 AND type = ANY($7::text[]) AND ts >= $5 AND ts < $6 AND platform = $2`;
const AMOUNT = `(payload->>'price')::float8 * COALESCE((payload->>'quantity')::float8, 1)`;
const CURRENCY = `upper(COALESCE(payload->>'currency', 'USD'))`;
const USD = `CASE WHEN ${CURRENCY} = 'USD' THEN ${AMOUNT}
  WHEN ${CURRENCY} = ANY($8::text[]) THEN ${AMOUNT} * $9::float8 ELSE 0 END`;

const REBUILD = [
  `DELETE FROM sdk_player_days WHERE ${KEY}`,
  `INSERT INTO sdk_player_days (team_id, platform, game_id, day, player_id, events, country, purchases,
     revenue_usd, ad_impressions, ad_revenue_usd)
   SELECT $1::bigint, $2::text, $3::text, $4::date, player_id, count(*)::int,
     (array_agg(country ORDER BY ts DESC) FILTER (WHERE country IS NOT NULL))[1],
     (count(*) FILTER (WHERE type = 'purchase'))::int,
     COALESCE(sum(${USD}) FILTER (WHERE type = 'purchase'), 0),
     (count(*) FILTER (WHERE type = 'ad_impression'))::int,
     COALESCE(sum((payload->>'revenue_usd')::float8) FILTER (WHERE type = 'ad_impression'), 0)
   ${EVENTS_OF_DAY}
   GROUP BY player_id`,
  `DELETE FROM sdk_session_days WHERE ${KEY}`,
  `INSERT INTO sdk_session_days (team_id, platform, game_id, day, player_id, session_id, first_ts, last_ts,
     end_duration_s, events)
   SELECT $1::bigint, $2::text, $3::text, $4::date, player_id, session_id, min(ts), max(ts),
     max((payload->>'duration_s')::float8) FILTER (WHERE type = 'session_end'), count(*)::int
   ${EVENTS_OF_DAY} AND session_id IS NOT NULL
   GROUP BY player_id, session_id`,
  `DELETE FROM sdk_purchase_days WHERE ${KEY}`,
  `INSERT INTO sdk_purchase_days (team_id, platform, game_id, day, player_id, sku, source, currency, country,
     purchases, units, amount)
   SELECT $1::bigint, $2::text, $3::text, $4::date, player_id, payload->>'sku', COALESCE(payload->>'source', 'iap'), ${CURRENCY}, country,
     count(*)::int, sum(COALESCE((payload->>'quantity')::bigint, 1))::bigint, sum(${AMOUNT})
   ${EVENTS_OF_DAY} AND type = 'purchase'
   GROUP BY player_id, payload->>'sku', COALESCE(payload->>'source', 'iap'), ${CURRENCY}, country`,
  `DELETE FROM sdk_ad_days WHERE ${KEY}`,
  `INSERT INTO sdk_ad_days (team_id, platform, game_id, day, format, network, placement, country,
     impressions, revenue_usd, ecpm_count, ecpm_sum)
   SELECT $1::bigint, $2::text, $3::text, $4::date, payload->>'format', payload->>'network', COALESCE(payload->>'placement', ''), country,
     count(*)::int, sum((payload->>'revenue_usd')::float8),
     (count(*) FILTER (WHERE payload ? 'ecpm'))::int, COALESCE(sum((payload->>'ecpm')::float8), 0)
   ${EVENTS_OF_DAY} AND type = 'ad_impression'
   GROUP BY payload->>'format', payload->>'network', COALESCE(payload->>'placement', ''), country`,
  `DELETE FROM sdk_level_days WHERE ${KEY}`,
  `INSERT INTO sdk_level_days (team_id, platform, game_id, day, player_id, level, attempts, wins, losses,
     quits, completes, attempts_to_done)
   SELECT $1::bigint, $2::text, $3::text, $4::date, player_id, level, count(*)::int,
     (count(*) FILTER (WHERE result = 'win'))::int, (count(*) FILTER (WHERE result = 'loss'))::int,
     (count(*) FILTER (WHERE result = 'quit'))::int, (count(*) FILTER (WHERE result = 'complete'))::int,
     CASE WHEN max(first_done) IS NULL THEN NULL ELSE (count(*) FILTER (WHERE ts <= first_done))::int END
   FROM (
     SELECT player_id, (payload->>'level')::bigint AS level, COALESCE(payload->>'result', 'complete') AS result, ts,
       min(ts) FILTER (WHERE COALESCE(payload->>'result', 'complete') IN ('win', 'complete'))
         OVER (PARTITION BY player_id, (payload->>'level')::bigint) AS first_done
     ${EVENTS_OF_DAY} AND type = 'level'
   ) AS l
   GROUP BY player_id, level`,
  `INSERT INTO sdk_players AS p (team_id, platform, game_id, player_id, first_day, first_country)
   SELECT team_id, platform, game_id, player_id, day, country FROM sdk_player_days WHERE ${KEY}
   ORDER BY player_id
   ON CONFLICT (team_id, game_id, platform, player_id) DO UPDATE
     SET first_day = EXCLUDED.first_day, first_country = EXCLUDED.first_country
     WHERE EXCLUDED.first_day < p.first_day`,
  `INSERT INTO sdk_games AS g (team_id, platform, game_id, first_day, last_day)
   SELECT $1::bigint, $2::text, $3::text, $4::date, $4::date WHERE EXISTS (SELECT 1 FROM sdk_player_days WHERE ${KEY})
   ON CONFLICT (team_id, game_id, platform) DO UPDATE
     SET first_day = LEAST(g.first_day, EXCLUDED.first_day), last_day = GREATEST(g.last_day, EXCLUDED.last_day)`,
  // The levels view's first finishes (0017): only ever moved earlier, like sdk_players.
  `INSERT INTO sdk_level_firsts AS f (team_id, platform, game_id, player_id, level, first_done_day)
   SELECT team_id, platform, game_id, player_id, level, day FROM sdk_level_days
    WHERE ${KEY} AND attempts_to_done IS NOT NULL
   ORDER BY player_id, level
   ON CONFLICT (team_id, game_id, player_id, level, platform) DO UPDATE
     SET first_done_day = EXCLUDED.first_done_day WHERE EXCLUDED.first_done_day < f.first_done_day`,
  // Each player's activity bits (0021), on this platform and on '' (every platform): set, never
  // cleared (a day's rebuild only adds players). A day before first_day prepends, after last_day
  // appends; a row that already says all of it is left alone.
  `INSERT INTO sdk_player_activity AS a (team_id, game_id, platform, player_id, first_day, last_day, days, paid,
     countries)
   SELECT $1::bigint, $3::text, p.platform, d.player_id, $4::date, $4::date, B'1',
     CASE WHEN d.purchases > 0 THEN B'1' ELSE B'0' END, ARRAY[COALESCE(d.country, '')]
     FROM sdk_player_days d CROSS JOIN (VALUES ($2::text), ('')) AS p (platform)
    WHERE d.team_id = $1 AND d.platform = $2 AND d.game_id = $3 AND d.day = $4
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
  `INSERT INTO sdk_stats_due (team_id, game_id, day)
   SELECT team_id, game_id, day FROM (VALUES ($1::bigint, $2::text, $3::text, $4::date)) AS k (team_id, platform, game_id, day)
   ON CONFLICT DO NOTHING`,
  // The ads view's per-player split (0019), read when a segment narrows the players.
  `DELETE FROM sdk_ad_player_days WHERE ${KEY}`,
  `INSERT INTO sdk_ad_player_days (team_id, platform, game_id, day, player_id, format, network, placement,
     impressions, revenue_usd, ecpm_count, ecpm_sum)
   SELECT $1::bigint, $2::text, $3::text, $4::date, player_id, payload->>'format', payload->>'network',
     COALESCE(payload->>'placement', ''), count(*)::int, sum((payload->>'revenue_usd')::float8),
     (count(*) FILTER (WHERE payload ? 'ecpm'))::int, COALESCE(sum((payload->>'ecpm')::float8), 0)
   ${EVENTS_OF_DAY} AND type = 'ad_impression'
   GROUP BY player_id, payload->>'format', payload->>'network', COALESCE(payload->>'placement', '')`,
];

/**
 * Every statement of a day's rebuild, in order: the core rollups above, then those a view keeps
 * for itself (in its folder, `views/*.rollup.repo.ts`: same parameters $1..$9 as REBUILD).
 */
const REBUILD_ALL = [
  ...REBUILD,
  ...LEVEL_REBUILD,
  ...MONEY_REBUILD,
  ...BRAND_REBUILD,
  ...EXPERIMENT_REBUILD,
  ...QUALITY_REBUILD,
];

/** Rebuilds every rollup of `key`'s day from the raw events (in `tx`). */
export async function rebuildDay(tx: Tx, key: TouchedDay): Promise<void> {
  const start = new Date(`${key.day}T00:00:00Z`);
  const end = new Date(start.getTime() + 86_400_000);
  const params = [
    key.team_id,
    key.platform,
    key.game_id,
    key.day,
    start,
    end,
    EVENT_TYPES,
    VIRTUAL_CURRENCIES,
    DEVEX_USD_PER_ROBUX,
  ];
  for (const sql of REBUILD_ALL) {
    // Each statement gets the parameters it names (PostgreSQL refuses unused typed ones).
    const used = maxParam(sql);
    await tx.query(sql, params.slice(0, used));
  }
}

function maxParam(sql: string): number {
  let max = 0;
  for (const m of sql.matchAll(/\$(\d+)/g)) max = Math.max(max, Number(m[1]));
  return max;
}

/** Every table the rollup job writes, and `events` (segments and funnels read it). */
const ANALYZED = [
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
  ...LEVEL_TABLES,
  ...MONEY_TABLES,
  ...BRAND_TABLES,
  ...QUALITY_TABLES,
  ...EXPERIMENT_TABLES,
  'events',
];

/** Refreshes the planner's statistics of the rollups (PGlite runs no autovacuum, and PostgreSQL's
 * lags a bulk load: stale counts turn the views' joins into nested loops over every player). */
export async function analyzeRollups(q: Queryable): Promise<void> {
  await q.exec(`ANALYZE ${ANALYZED.join(', ')}`);
}
