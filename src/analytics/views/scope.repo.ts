/**
 * The WHERE fragment every view's SQL starts from: the team's game, the platform filter and the
 * segment's players, as parameters $1..$4 (views number theirs from $5).
 */
import type { ViewContext } from './view.js';

/** `team_id = $1 AND game_id = $2 AND (platform filter $3) AND (players filter $4)`, for a table
 * (or alias) with those columns. The players filter is an uncorrelated IN (subquery), which the
 * planner runs as a hashed subplan: `= ANY(array)` compared each row with every segment member,
 * quadratic for a segment of 45,000 players. */
export function scopeSql(alias = ''): string {
  const a = alias ? `${alias}.` : '';
  return `${a}team_id = $1 AND ${a}game_id = $2 AND ($3::text IS NULL OR ${a}platform = $3)
    AND ($4::text[] IS NULL OR ${a}player_id IN (SELECT unnest($4::text[])))`;
}

/** The parameters of scopeSql. */
export function scopeParams(ctx: ViewContext): unknown[] {
  return [ctx.teamId, ctx.gameId, ctx.platform, ctx.players];
}

/** A SQL number to a JS number (bigint and numeric come back as strings); null stays null. */
export function num(v: unknown): number {
  return v === null || v === undefined ? 0 : Number(v);
}

export function numOrNull(v: unknown): number | null {
  return v === null || v === undefined ? null : Number(v);
}

/** SQL: a rollup row's series point, its `day` or the Monday of its ISO week. */
export function pointSql(ctx: Pick<ViewContext, 'granularity'>): string {
  return ctx.granularity === 'week' ? "date_trunc('week', day)::date" : 'day';
}

/** The column of a row's entity on its platform when the request names one ($3), else on every
 * platform (previous- and next-day columns, analytics/rollup.source.ts PrevDay). */
export function eitherPlatform(onPlatform: string, anyPlatform: string): string {
  return onPlatform === anyPlatform
    ? onPlatform
    : `CASE WHEN $3::text IS NULL THEN ${anyPlatform} ELSE ${onPlatform} END`;
}

/**
 * Whether a row is its entity's first from `from` on (by default the range's start, $5): its
 * previous-day column is null or before it (eitherPlatform). A segment keeps or drops all of a
 * player's rows, so it leaves the count exact.
 */
export function firstInRange(onPlatform: string, anyPlatform = onPlatform, from = '$5::date'): string {
  return `COALESCE(${eitherPlatform(onPlatform, anyPlatform)}, '-infinity'::date) < ${from}`;
}
