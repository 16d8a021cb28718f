/**
 * SQL of the funnel: read from the raw events of the range (level and custom only), because a
 * funnel's steps are arbitrary conditions no rollup could anticipate. The whole walk runs in the
 * database (one statement, a chain of CTEs, one per step), so memory stays with PostgreSQL, which
 * spills to disk, and the process receives one row per step.
 */
import { conditionSql } from './conditions.js';
import type { FunnelStepT } from './funnel.schemas.js';
import { addDays } from './range.js';
import { scopeParams, scopeSql } from './views/scope.repo.js';
import type { ViewContext } from './views/view.js';

export interface FunnelStepRow {
  step: number;
  players: number;
  /** Seconds from the previous step's event; null on step 0 or when nobody reached the step. */
  median_gap: number | null;
}

/** Whether an events row `e` matches `step`, its parameters numbered from `first`. */
function stepSql(step: FunnelStepT, first: number): { sql: string; params: unknown[] } {
  const params: unknown[] = [];
  let sql: string;
  if (step.level !== undefined) {
    // jsonb equality compares numbers as numbers (1 = 1.0), whatever the client wrote.
    params.push(JSON.stringify(step.level));
    sql = `e.type = 'level' AND (e.payload -> 'level') = $${first}::jsonb`;
  } else {
    params.push(step.custom);
    sql = `e.type = 'custom' AND (e.payload ->> 'name') = $${first}::text`;
  }
  if (step.where) {
    const c = conditionSql({ conditions: step.where }, 'e', first + params.length);
    sql += ` AND ${c.sql}`;
    params.push(...c.params);
  }
  return { sql: `(${sql})`, params };
}

/**
 * Players per step. Step 0 is each player's first matching event in the range; step k is the
 * earliest matching event at or after step k−1's (ts ≥, a different event) and at most
 * `windowHours` after step 0's. Greedy earliest matching is exact here: the earliest candidate
 * leaves every later step the most room. A player is their player_id across the platforms read.
 */
export async function funnelSteps(
  ctx: ViewContext,
  steps: readonly FunnelStepT[],
  windowHours: number,
): Promise<FunnelStepRow[]> {
  const types = [...new Set(steps.map((s) => (s.level !== undefined ? 'level' : 'custom')))];
  const params: unknown[] = [
    ...scopeParams(ctx),
    types,
    new Date(`${ctx.range.from}T00:00:00Z`),
    new Date(`${addDays(ctx.range.to, 1)}T00:00:00Z`),
    windowHours,
  ];
  const flags = steps.map((step, i) => {
    const m = stepSql(step, params.length + 1);
    params.push(...m.params);
    return `${m.sql} AS m${i}`;
  });
  const ctes = steps.map((_, i) =>
    i === 0
      ? `s0 AS (
           SELECT DISTINCT ON (player_id) player_id, ts AS t0, ts AS t, NULL::float8 AS gap, ARRAY[event_id] AS used
             FROM ev WHERE m0 ORDER BY player_id, ts, event_id)`
      : `s${i} AS (
           SELECT DISTINCT ON (p.player_id) p.player_id, p.t0, e.ts AS t,
                  extract(epoch FROM e.ts - p.t)::float8 AS gap, p.used || e.event_id AS used
             FROM s${i - 1} p JOIN ev e ON e.player_id = p.player_id AND e.m${i}
              AND e.ts >= p.t AND e.ts <= p.t0 + make_interval(hours => $8::int) AND e.event_id <> ALL(p.used)
            ORDER BY p.player_id, e.ts, e.event_id)`,
  );
  const counts = steps.map(
    (_, i) =>
      `SELECT ${i} AS step, count(*)::int AS players,
              percentile_cont(0.5) WITHIN GROUP (ORDER BY gap) AS median_gap FROM s${i}`,
  );
  const r = await ctx.db.query<FunnelStepRow>(
    `WITH ev AS MATERIALIZED (
       SELECT * FROM (
         SELECT e.player_id, e.ts, e.event_id, ${flags.join(', ')}
           FROM events e
          WHERE ${scopeSql('e')} AND e.type = ANY($5::text[]) AND e.ts >= $6 AND e.ts < $7
       ) AS x WHERE ${steps.map((_, i) => `m${i}`).join(' OR ')}
     ), ${ctes.join(', ')}
     ${counts.join(' UNION ALL ')}
     ORDER BY step`,
    params,
  );
  return r.rows;
}
