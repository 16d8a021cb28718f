/**
 * engagement: how many players come back, and how much they play. Per day (or ISO week): DAU, WAU,
 * MAU, stickiness, new and returning players; over the range: sessions per player, session length
 * and playtime per player-day. Every count is exact (distinct players from the per-player-day
 * rollup; WAU and MAU by running sums, engagement.repo.ts).
 */
import { type Static, Type } from 'typebox';
import { viewResponse } from '../analytics.schemas.js';
import { bucketOf } from '../range.js';
import { newPlayersByDay, rangePlayers } from './activity.repo.js';
import {
  type DailyActives,
  dailyActives,
  dayFigures,
  PERCENTILE_METHOD,
  PercentileMethod,
  sessionFigures,
} from './daily.js';
import { roundOrNull } from './figures.js';
import { sessionLengthSource } from './sessions.repo.js';
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
          'Seconds per session started in the range. See session_length_source and percentile_method.',
      },
    ),
    playtime_per_player_day_s: Type.Object(
      { avg: Stat, p50: Stat, p90: Stat },
      {
        description:
          'Seconds played per player-day: the lengths of the sessions a player started that day, summed. See percentile_method.',
      },
    ),
    percentile_method: PercentileMethod,
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

/** Daily points: the actives of the day figures with the new players of each day. */
export function dailyPoints(
  actives: readonly DailyActives[],
  fresh: readonly { day: string; players: number }[],
): Point[] {
  const news = new Map(fresh.map((f) => [f.day, f.players]));
  return actives.map((a) => {
    const n = news.get(a.date) ?? 0;
    return {
      date: a.date,
      dau: a.dau,
      wau: a.wau,
      mau: a.mau,
      stickiness: a.mau > 0 ? roundOrNull(a.dau / a.mau, 4) : null,
      new_players: n,
      returning_players: a.dau - n,
    };
  });
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
    const [figures, fresh, range] = await Promise.all([
      dayFigures(ctx),
      newPlayersByDay(ctx),
      rangePlayers(ctx),
    ]);
    const daily = dailyPoints(dailyActives(figures.days, ctx.range, figures.readFrom), fresh);
    const sessions = sessionFigures(figures.days, ctx.range);
    const players = range.players;
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
      percentile_method: PERCENTILE_METHOD,
      session_length_source: sessionLengthSource(sessions),
    };
  },
};
