/**
 * SQL of the brand view, over the per-player rollups of migration 0026 (views/brand.rollup.repo.ts):
 * zone entries, exits by dwell, equips and shares per player and day. Distinct players of a range
 * (a player is their player_id across the platforms read) are its rows that are their player's first
 * in it, per zone or item or over all of them (previous-day columns, migration 0032, firstInRange),
 * so every count is exact and takes one scan; the segment's players and the platform filter narrow
 * them like any rollup (scopeSql).
 */
import type { Histogram } from './daily.js';
import { eitherPlatform, firstInRange, num, scopeParams, scopeSql } from './scope.repo.js';
import type { ViewContext } from './view.js';

/** The most zones and items a response lists (most players first). */
export const BRAND_LIST_LIMIT = 100;

function params(ctx: ViewContext): unknown[] {
  return [...scopeParams(ctx), ctx.range.from, ctx.range.to];
}

const IN_RANGE = `${scopeSql()} AND day BETWEEN $5 AND $6`;
/** Rows that count their player once for their zone or item, and once over every one (0032). */
const FIRST = firstInRange('prev_day', 'prev_any');
const PLAYER_FIRST = firstInRange('player_prev_day', 'player_prev_any');
/** An item's player's next day with it after the row's. */
const NEXT = eitherPlatform('next_day', 'next_any');

export interface ZoneRow {
  zone_id: string;
  reach: number;
  entries: number;
  exits: number;
  /** The range's exits by dwell (tenths of a second), ascending. */
  dwell: Histogram;
}

/** Per zone with an enter or an exit in the range: reach and entries (from enters), exits and their
 * dwell histogram (from exits, with or without an enter); most players first, at most the limit. */
export async function zoneStats(ctx: ViewContext): Promise<ZoneRow[]> {
  const r = await ctx.db.query<{
    zone_id: string;
    reach: number;
    entries: number;
    exits: number;
    values: number[] | null;
    counts: number[] | null;
  }>(
    `WITH entered AS (
       SELECT zone_id, (count(*) FILTER (WHERE ${FIRST}))::int AS reach, sum(entries)::int AS entries
         FROM sdk_brand_zone_days WHERE ${IN_RANGE} GROUP BY zone_id
     ), dwell AS (
       SELECT zone_id, dwell_s, sum(exits)::int AS n
         FROM sdk_brand_dwell_days WHERE ${IN_RANGE} GROUP BY zone_id, dwell_s
     ), exited AS (
       SELECT zone_id, sum(n)::int AS exits, array_agg(dwell_s ORDER BY dwell_s) AS values,
              array_agg(n ORDER BY dwell_s) AS counts
         FROM dwell GROUP BY zone_id
     )
     SELECT zone_id, COALESCE(e.reach, 0) AS reach, COALESCE(e.entries, 0) AS entries,
            COALESCE(x.exits, 0) AS exits, x.values, x.counts
       FROM entered e FULL JOIN exited x USING (zone_id)
      ORDER BY 2 DESC, 4 DESC, zone_id LIMIT ${BRAND_LIST_LIMIT}`,
    params(ctx),
  );
  return r.rows.map((row) => ({
    zone_id: row.zone_id,
    reach: num(row.reach),
    entries: num(row.entries),
    exits: num(row.exits),
    dwell: { values: (row.values ?? []).map(Number), counts: (row.counts ?? []).map(Number) },
  }));
}

export interface ItemRow {
  item_id: string;
  players: number;
  equips: number;
  /** Players who equipped it on 2 or more distinct UTC days of the range. */
  repeat_players: number;
}

/** Per item equipped in the range; most players first, at most the limit. */
export async function itemStats(ctx: ViewContext): Promise<ItemRow[]> {
  const r = await ctx.db.query<ItemRow>(
    `SELECT item_id, (count(*) FILTER (WHERE ${FIRST}))::int AS players, sum(equips)::int AS equips,
            (count(*) FILTER (WHERE ${FIRST} AND ${NEXT} <= $6::date))::int AS repeat_players
       FROM sdk_brand_equip_days WHERE ${IN_RANGE}
      GROUP BY item_id ORDER BY players DESC, item_id LIMIT ${BRAND_LIST_LIMIT}`,
    params(ctx),
  );
  return r.rows.map((row) => ({
    item_id: row.item_id,
    players: num(row.players),
    equips: num(row.equips),
    repeat_players: num(row.repeat_players),
  }));
}

export interface FunnelCounts {
  reached: number;
  equipped: number;
  shared: number;
  by_platform: { share_platform: string; players: number; shares: number }[];
  /** Any share event in the range, by any player (funnel stage or not). */
  any_shares: boolean;
}

/**
 * The share funnel over the range: players who entered a zone; of them, those who equipped an item;
 * of those, those who shared (any destination, and per destination with their shares there). The
 * stages are sets of players over the range, not ordered in time (the rollups are per day).
 */
export async function shareFunnel(ctx: ViewContext): Promise<FunnelCounts> {
  const r = await ctx.db.query<{
    share_platform: string | null;
    players: number;
    shares: number;
    reached: number;
    equipped: number;
    any_shares: boolean;
  }>(
    `WITH reached AS (
       SELECT player_id FROM sdk_brand_zone_days WHERE ${IN_RANGE} AND ${PLAYER_FIRST}
     ), equipped AS (
       -- Two lists of distinct players, intersected by hashing both (an IN let the planner, which
       -- cannot see how many players a CTE holds, probe the equips once per player reached).
       SELECT player_id FROM sdk_brand_equip_days WHERE ${IN_RANGE} AND ${PLAYER_FIRST}
       INTERSECT SELECT player_id FROM reached
     ), shared AS MATERIALIZED (
       -- Keys compared as bytes ("C"): equality is the same, and a sort by the locale was most of
       -- the time left at 10M events.
       SELECT player_id COLLATE "C" AS player_id, share_platform, sum(shares) AS shares
         FROM sdk_brand_share_days WHERE ${IN_RANGE} AND player_id IN (SELECT player_id FROM equipped)
        GROUP BY 1, 2
     )
     SELECT * FROM (
       SELECT NULL::text AS share_platform,
              (SELECT count(*) FROM (SELECT DISTINCT player_id FROM shared) AS d)::int AS players,
              COALESCE((SELECT sum(shares) FROM shared), 0)::int AS shares,
              (SELECT count(*) FROM reached)::int AS reached, (SELECT count(*) FROM equipped)::int AS equipped,
              EXISTS (SELECT 1 FROM sdk_brand_share_days WHERE ${IN_RANGE}) AS any_shares
       UNION ALL
       SELECT share_platform, count(*)::int, sum(shares)::int, NULL, NULL, NULL FROM shared GROUP BY share_platform
     ) AS f
      ORDER BY share_platform IS NULL DESC, players DESC, share_platform`,
    params(ctx),
  );
  const [total, ...platforms] = r.rows;
  return {
    reached: num(total?.reached),
    equipped: num(total?.equipped),
    shared: num(total?.players),
    by_platform: platforms.map((p) => ({
      share_platform: p.share_platform ?? '',
      players: num(p.players),
      shares: num(p.shares),
    })),
    any_shares: total?.any_shares === true,
  };
}
