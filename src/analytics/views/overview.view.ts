/**
 * overview: the game at a glance. Active players per point (DAU, or the week's actives), WAU and
 * MAU at `to`, new players, sessions, playtime per player-day, revenue, ARPDAU, payers and the top
 * 10 countries. Every count is exact (distinct players from the per-player-day rollup).
 */
import { Type } from 'typebox';
import { viewResponse } from '../analytics.schemas.js';
import { addDays, bucketOf, eachDay } from '../range.js';
import { playersPerSpan, rangePlayers, topCountries } from './activity.repo.js';
import { dailyActives, dayFigures, PERCENTILE_METHOD, PercentileMethod, sessionFigures } from './daily.js';
import { roundOrNull } from './figures.js';
import type { View, ViewContext } from './view.js';

const Stat = Type.Union([Type.Number(), Type.Null()]);

export const OverviewView = viewResponse(
  'SdkOverview',
  {
    dau: Type.Array(
      Type.Object({
        date: Type.String({ format: 'date', description: 'The day, or the Monday of the ISO week.' }),
        players: Type.Integer({ description: 'Distinct players active in the day (or week).' }),
      }),
    ),
    wau: Type.Integer({ description: 'Distinct players active in the 7 days ending `to`.' }),
    mau: Type.Integer({ description: 'Distinct players active in the 30 days ending `to`.' }),
    players: Type.Integer({ description: 'Distinct players active in the range.' }),
    new_players: Type.Integer({ description: 'Players first seen in the range.' }),
    sessions: Type.Integer({ description: 'Sessions started in the range.' }),
    playtime_s: Type.Object(
      { avg: Stat, p50: Stat, p90: Stat },
      {
        description:
          'Seconds played per player-day: the lengths of the sessions a player started that day, summed. See percentile_method.',
      },
    ),
    percentile_method: PercentileMethod,
    revenue_usd: Type.Number({
      description:
        'Purchases in USD, plus the platform currency at the DevEx rate (see monetization for other currencies).',
    }),
    arpdau_usd: Stat,
    paying_players: Type.Integer(),
    top_countries: Type.Array(Type.Object({ country: Type.String(), players: Type.Integer() })),
  },
  'The game at a glance over the range.',
);

export const overview: View<typeof OverviewView> = {
  name: 'overview',
  schema: OverviewView,
  summary: 'DAU, WAU, MAU, new players, sessions, playtime, revenue, ARPDAU, payers, top countries',
  async load(ctx) {
    const [figures, range, countries, weeks] = await Promise.all([
      dayFigures(ctx),
      rangePlayers(ctx),
      topCountries(ctx),
      ctx.granularity === 'week' ? weeklyActives(ctx) : null,
    ]);
    const actives = dailyActives(figures.days, ctx.range, figures.readFrom);
    const last = actives[actives.length - 1];
    const sessions = sessionFigures(figures.days, ctx.range);
    const inRange = figures.days.filter((d) => d.day >= ctx.range.from && d.day <= ctx.range.to);
    const revenue = inRange.reduce((s, d) => s + d.revenue_usd, 0);
    const playerDays = inRange.reduce((s, d) => s + d.dau, 0);
    return {
      dau: weeks ?? actives.filter((a) => a.dau > 0).map((a) => ({ date: a.date, players: a.dau })),
      wau: last?.wau ?? 0,
      mau: last?.mau ?? 0,
      players: range.players,
      new_players: range.new_players,
      sessions: sessions.sessions,
      playtime_s: {
        avg: roundOrNull(sessions.playtime_avg),
        p50: roundOrNull(sessions.playtime_p50),
        p90: roundOrNull(sessions.playtime_p90),
      },
      percentile_method: PERCENTILE_METHOD,
      revenue_usd: roundOrNull(revenue, 4) ?? 0,
      arpdau_usd: playerDays > 0 ? roundOrNull(revenue / playerDays, 4) : null,
      paying_players: range.paying_players,
      top_countries: countries,
    };
  },
};

/** Distinct players per ISO week of the range (its days inside the range); weeks with none left out. */
async function weeklyActives(ctx: ViewContext): Promise<{ date: string; players: number }[]> {
  const weeks = [...new Set(eachDay(ctx.range.from, ctx.range.to).map((d) => bucketOf(d, 'week')))];
  // ISO dates sort as strings: a week's span is its days inside the range.
  const spans = weeks.map((monday) => {
    const [, start] = [monday, ctx.range.from].sort();
    const [end] = [addDays(monday, 6), ctx.range.to].sort();
    return [start!, end!] as const;
  });
  const counts = await playersPerSpan(ctx, spans);
  return weeks.map((date, i) => ({ date, players: counts[i]! })).filter((w) => w.players > 0);
}
