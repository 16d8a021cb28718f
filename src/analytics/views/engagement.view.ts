/**
 * engagement: how many players come back, and how much they play. Per day (or ISO week): DAU, WAU,
 * MAU, stickiness, new and returning players; over the range: sessions per player, session length
 * and playtime per player-day. Every count is exact (distinct players from the per-player-day
 * rollup; WAU and MAU by running sums, engagement.repo.ts).
 */
import { type Static, Type } from 'typebox';
import { viewResponse } from '../analytics.schemas.js';
import { addDays, bucketOf, type DayRange } from '../range.js';
import { type EngagementPassRow, engagementPass, newPlayersByDay } from './engagement.repo.js';
import { roundOrNull } from './figures.js';
import { sessionLengthSource, sessionSummary } from './sessions.repo.js';
import type { View } from './view.js';

const Stat = Type.Union([Type.Number(), Type.Null()]);

const EngagementPoint = Type.Object({
  date: Type.String({ format: 'date', description: 'The day, or the Monday of the ISO week.' }),
  dau: Type.Number({
    description:
      'Distinct players active that day. Per week: the average of the daily actives over the week’s days inside the range (2 decimals).',
  }),
  wau: Type.Integer({
    description:
      'Distinct players active in the 7 days ending that day (per week: ending the week’s last day inside the range).',
  }),
  mau: Type.Integer({
    description:
      'Distinct players active in the 30 days ending that day (per week: ending the week’s last day inside the range). Days before the plan’s history are not read.',
  }),
  stickiness: Type.Union([Type.Number(), Type.Null()], {
    description:
      'dau / mau of that day, 4 decimals (per week: of the week’s last day inside the range); null when mau is 0.',
  }),
  new_players: Type.Integer({
    description:
      'Players first seen that day (on any platform of the game, or on the filtered one); per week: summed over its days.',
  }),
  returning_players: Type.Integer({
    description:
      'dau − new_players: actives seen before that day; per week: summed over its days (player-days).',
  }),
});

export const EngagementView = viewResponse(
  'SdkEngagement',
  {
    series: Type.Array(EngagementPoint, { description: 'One point per day (or ISO week) of the range.' }),
    sessions_per_player: Type.Union([Type.Number(), Type.Null()], {
      description:
        'Sessions started in the range / distinct players active in the range, 2 decimals; null without players.',
    }),
    session_length_s: Type.Object(
      { avg: Stat, p50: Stat, p90: Stat },
      {
        description:
          'Seconds per session started in the range; exact percentiles. See session_length_source.',
      },
    ),
    playtime_per_player_day_s: Type.Object(
      { avg: Stat, p50: Stat, p90: Stat },
      {
        description:
          'Seconds played per player-day: the lengths of the sessions a player started that day, summed. Exact percentiles.',
      },
    ),
    session_length_source: Type.Union(
      [Type.Literal('session_end'), Type.Literal('event_span'), Type.Literal('mixed'), Type.Literal('none')],
      {
        description:
          'Where session lengths come from: session_end (every session sent one: its duration_s), event_span (none ' +
          'did: the span between the session’s first and last event; platform_1’s SDK sends no session_end, so its ' +
          'sessions are always measured so), mixed (some of each), none (no sessions in the range).',
      },
    ),
  },
  'Daily (or weekly) actives, stickiness, new and returning players, sessions per player, session length and playtime.',
);

type Point = Static<typeof EngagementPoint>;

/** The first day read: 29 days before `from`, so MAU on `from` sees its whole window, but never a
 * day the plan may not read. */
export function readFromOf(range: DayRange): string {
  const from = addDays(range.from, -29);
  const earliest = range.history_limited_from;
  return earliest !== null && from < earliest ? earliest : from;
}

/** Per day: actives, new players, and how far WAU and MAU move (stretches opened − closed). */
interface DayMoves {
  dau: number;
  new_players: number;
  wau: number;
  mau: number;
}

/** The pass's grouped rows (engagement.repo.ts) as moves per day, and the players of the range. */
export function movesOf(
  rows: readonly EngagementPassRow[],
  fresh: readonly { day: string; players: number }[],
): { moves: Map<string, DayMoves>; players: number } {
  const moves = new Map<string, DayMoves>();
  const at = (day: string) => {
    let m = moves.get(day);
    if (!m) {
      m = { dau: 0, new_players: 0, wau: 0, mau: 0 };
      moves.set(day, m);
    }
    return m;
  };
  let players = 0;
  for (const r of rows) {
    if (r.day !== null) {
      const m = at(r.day);
      m.dau += r.active;
      m.wau += r.rows;
      m.mau += r.rows;
    } else if (r.wau_end !== null) at(r.wau_end).wau -= r.rows;
    else if (r.mau_end !== null) at(r.mau_end).mau -= r.rows;
    else players = r.players;
  }
  for (const f of fresh) at(f.day).new_players += f.players;
  return { moves, players };
}

/** Daily points: WAU and MAU are the running sums of their moves from `readFrom`. */
export function dailyPoints(
  moves: ReadonlyMap<string, DayMoves>,
  range: DayRange,
  readFrom: string,
): Point[] {
  const out: Point[] = [];
  let wau = 0;
  let mau = 0;
  for (let d = readFrom; d <= range.to; d = addDays(d, 1)) {
    const m = moves.get(d);
    wau += m?.wau ?? 0;
    mau += m?.mau ?? 0;
    if (d < range.from) continue;
    const dau = m?.dau ?? 0;
    const fresh = m?.new_players ?? 0;
    out.push({
      date: d,
      dau,
      wau,
      mau,
      stickiness: mau > 0 ? roundOrNull(dau / mau, 4) : null,
      new_players: fresh,
      returning_players: dau - fresh,
    });
  }
  return out;
}

/** Weekly points: average DAU over the week's days in the range, WAU/MAU/stickiness of its last
 * day in the range, new and returning summed. */
export function weeklyPoints(days: readonly Point[]): Point[] {
  const weeks = new Map<string, Point[]>();
  for (const p of days) {
    const week = bucketOf(p.date, 'week');
    const list = weeks.get(week);
    if (list) list.push(p);
    else weeks.set(week, [p]);
  }
  return [...weeks].map(([week, ps]) => {
    const last = ps[ps.length - 1]!;
    const sum = (f: (p: Point) => number) => ps.reduce((s, p) => s + f(p), 0);
    return {
      date: week,
      dau: roundOrNull(sum((p) => p.dau) / ps.length) ?? 0,
      wau: last.wau,
      mau: last.mau,
      stickiness: last.stickiness,
      new_players: sum((p) => p.new_players),
      returning_players: sum((p) => p.returning_players),
    };
  });
}

export const engagement: View<typeof EngagementView> = {
  name: 'engagement',
  schema: EngagementView,
  summary:
    'DAU, WAU, MAU, stickiness, new and returning players, sessions per player, session length, playtime',
  async load(ctx) {
    const readFrom = readFromOf(ctx.range);
    const [pass, fresh, sessions] = await Promise.all([
      engagementPass(ctx, readFrom),
      newPlayersByDay(ctx),
      sessionSummary(ctx),
    ]);
    const { moves, players } = movesOf(pass, fresh);
    const daily = dailyPoints(moves, ctx.range, readFrom);
    return {
      series: ctx.granularity === 'week' ? weeklyPoints(daily) : daily,
      sessions_per_player: players > 0 ? roundOrNull(sessions.sessions / players) : null,
      session_length_s: {
        avg: roundOrNull(sessions.length_avg),
        p50: roundOrNull(sessions.length_p50),
        p90: roundOrNull(sessions.length_p90),
      },
      playtime_per_player_day_s: {
        avg: roundOrNull(sessions.playtime_avg),
        p50: roundOrNull(sessions.playtime_p50),
        p90: roundOrNull(sessions.playtime_p90),
      },
      session_length_source: sessionLengthSource(sessions),
    };
  },
};
