/**
 * SQL over sdk_player_activity (migration 0021): one row per player with their active days as a bit
 * string from first_day, on the filtered platform or ('' rows) on every platform combined. Counts
 * of distinct players over a range, new players, cohorts and countries read a row per player, not a
 * row per player-day. The segment's players narrow it like any rollup.
 */
import { scopeParams } from './scope.repo.js';
import type { ViewContext } from './view.js';

/** `team_id = $1 AND game_id = $2 AND platform = ($3 or '') AND (players filter $4)` for the
 * activity table (or alias): its '' rows are the platforms combined. */
export function activityScope(alias = ''): string {
  const a = alias ? `${alias}.` : '';
  return `${a}team_id = $1 AND ${a}game_id = $2 AND ${a}platform = COALESCE($3::text, '')
    AND ($4::text[] IS NULL OR ${a}player_id IN (SELECT unnest($4::text[])))`;
}

/** SQL: the player has a bit set in `bits` (a bit string from first_day) between day `a` and day `b`
 * (SQL date expressions, a ≤ b). */
export function activeBetween(bits: string, a: string, b: string): string {
  return `(first_day <= ${b} AND last_day >= ${a}
    AND bit_count(substring(${bits} FROM GREATEST(${a} - first_day, 0) + 1
                                    FOR ${b} - GREATEST(${a}, first_day) + 1)) > 0)`;
}

export interface RangePlayers {
  /** Players active in [from, to]. */
  players: number;
  /** Players whose first day (on the platforms read) is in [from, to]. */
  new_players: number;
  /** Players with a purchase in [from, to]. */
  paying_players: number;
  /** Payers of the range with no purchase before it (their first ever, the platform filter
   * applying): `paid` spans the same days as `days`, so the bits before `from` are its first
   * from − first_day. */
  first_time_payers: number;
}

/** Distinct players, new players, payers and first-time payers of the range ($5 from, $6 to). */
export async function rangePlayers(ctx: ViewContext): Promise<RangePlayers> {
  const paidInRange = activeBetween('paid', '$5::date', '$6::date');
  const r = await ctx.db.query<RangePlayers>(
    `SELECT (count(*) FILTER (WHERE ${activeBetween('days', '$5::date', '$6::date')}))::int AS players,
            (count(*) FILTER (WHERE first_day BETWEEN $5 AND $6))::int AS new_players,
            (count(*) FILTER (WHERE ${paidInRange}))::int AS paying_players,
            (count(*) FILTER (WHERE ${paidInRange}
               AND bit_count(substring(paid FROM 1 FOR GREATEST($5::date - first_day, 0))) = 0))::int
              AS first_time_payers
       FROM sdk_player_activity WHERE ${activityScope()} AND first_day <= $6 AND last_day >= $5`,
    [...scopeParams(ctx), ctx.range.from, ctx.range.to],
  );
  return r.rows[0]!;
}

/** Distinct players active in each span (a list of [from, to] day pairs, e.g. the ISO weeks of a
 * range cut to it), in the same order. */
export async function playersPerSpan(
  ctx: ViewContext,
  spans: readonly (readonly [string, string])[],
): Promise<number[]> {
  if (spans.length === 0) return [];
  const params: unknown[] = [...scopeParams(ctx)];
  const counts = spans.map(([a, b]) => {
    params.push(a, b);
    const pa = `$${params.length - 1}::date`;
    const pb = `$${params.length}::date`;
    return `(count(*) FILTER (WHERE ${activeBetween('days', pa, pb)}))::int`;
  });
  const first = spans[0]![0];
  const last = spans[spans.length - 1]![1];
  params.push(first, last);
  const r = await ctx.db.query<{ n: number[] }>(
    `SELECT ARRAY[${counts.join(', ')}] AS n FROM sdk_player_activity
      WHERE ${activityScope()} AND first_day <= $${params.length}::date AND last_day >= $${params.length - 1}::date`,
    params,
  );
  return r.rows[0]!.n.map(Number);
}

/** Players first seen on each day of the range (on any platform of the game: their earliest, or on
 * the filtered one). */
export async function newPlayersByDay(ctx: ViewContext): Promise<{ day: string; players: number }[]> {
  const r = await ctx.db.query<{ day: string; players: number }>(
    `SELECT to_char(first_day, 'YYYY-MM-DD') AS day, count(*)::int AS players
       FROM sdk_player_activity WHERE ${activityScope()} AND first_day BETWEEN $5 AND $6
      GROUP BY first_day`,
    [...scopeParams(ctx), ctx.range.from, ctx.range.to],
  );
  return r.rows;
}

/** The 10 countries with the most players active in the range (a player counts once per country
 * of their days there). A player whose days all had one country counts there from the activity
 * row; the few with several are looked up day by day in sdk_player_days. */
export async function topCountries(ctx: ViewContext): Promise<{ country: string; players: number }[]> {
  const r = await ctx.db.query<{ country: string; players: number }>(
    `WITH act AS (
       SELECT player_id, countries FROM sdk_player_activity
        WHERE ${activityScope()} AND ${activeBetween('days', '$5::date', '$6::date')}
     ), per AS (
       SELECT countries[1] AS country, count(*) AS players FROM act
        WHERE cardinality(countries) = 1 AND countries[1] <> '' GROUP BY countries[1]
       UNION ALL
       SELECT country, count(DISTINCT player_id) FROM sdk_player_days
        WHERE team_id = $1 AND game_id = $2 AND ($3::text IS NULL OR platform = $3) AND day BETWEEN $5 AND $6
          AND country IS NOT NULL
          AND player_id IN (SELECT player_id FROM act WHERE cardinality(countries) > 1)
        GROUP BY country
     )
     SELECT country, sum(players)::int AS players FROM per
      GROUP BY country ORDER BY players DESC, country LIMIT 10`,
    [...scopeParams(ctx), ctx.range.from, ctx.range.to],
  );
  return r.rows;
}

/**
 * The range's cohorts (players first seen on a day of it): `size`; `active[N − 1]`, the players
 * active on exactly day N after their first (N = 1..30: bit N of `days`); `lasts[N − 1]`, those
 * whose last active day up to `today` is day N (30: day 30 or later). One aggregate per day N over
 * a row per player.
 */
export interface CohortCountRow {
  cohort: string;
  size: number;
  active: number[];
  lasts: number[];
}

const RETENTION_DAYS = Array.from({ length: 30 }, (_, i) => i + 1);

export async function cohortCounts(ctx: ViewContext, today: string): Promise<CohortCountRow[]> {
  const active = RETENTION_DAYS.map(
    (n) => `count(*) FILTER (WHERE length(days) > ${n} AND get_bit(days, ${n}) = 1)`,
  );
  const lasts = RETENTION_DAYS.map((n) => `count(*) FILTER (WHERE last = ${n})`);
  const r = await ctx.db.query<CohortCountRow>(
    `SELECT to_char(first_day, 'YYYY-MM-DD') AS cohort, count(*)::int AS size,
            ARRAY[${active.join(', ')}]::int[] AS active, ARRAY[${lasts.join(', ')}]::int[] AS lasts
       FROM (SELECT first_day, days, LEAST(LEAST(last_day, $7::date) - first_day, 30) AS last
               FROM sdk_player_activity WHERE ${activityScope()} AND first_day BETWEEN $5 AND $6) AS c
      GROUP BY first_day`,
    [...scopeParams(ctx), ctx.range.from, ctx.range.to, today],
  );
  return r.rows;
}
