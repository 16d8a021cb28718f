/**
 * overview: the game at a glance. Active players per point (DAU, or the week's actives), WAU and
 * MAU at `to`, new players, sessions, playtime per player-day, revenue, ARPDAU, payers and the top
 * 10 countries. Every count is exact (distinct players from the per-player-day rollup).
 */
import { Type } from 'typebox';
import { viewResponse } from '../analytics.schemas.js';
import { roundOrNull } from './figures.js';
import { activeOver, activeSeries, overviewTotals, topCountries } from './overview.repo.js';
import { sessionSummary } from './sessions.repo.js';
import type { View } from './view.js';

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
          'Seconds played per player-day: the lengths of the sessions a player started that day, summed. Exact percentiles.',
      },
    ),
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
    const earliest = ctx.range.history_limited_from;
    const [dau, wau, mau, totals, sessions, countries] = await Promise.all([
      activeSeries(ctx),
      activeOver(ctx, ctx.range.to, 7, earliest),
      activeOver(ctx, ctx.range.to, 30, earliest),
      overviewTotals(ctx),
      sessionSummary(ctx),
      topCountries(ctx),
    ]);
    return {
      dau,
      wau,
      mau,
      players: totals.players,
      new_players: totals.new_players,
      sessions: sessions.sessions,
      playtime_s: {
        avg: roundOrNull(sessions.playtime_avg),
        p50: roundOrNull(sessions.playtime_p50),
        p90: roundOrNull(sessions.playtime_p90),
      },
      revenue_usd: roundOrNull(totals.revenue_usd, 4) ?? 0,
      arpdau_usd: totals.player_days > 0 ? roundOrNull(totals.revenue_usd / totals.player_days, 4) : null,
      paying_players: totals.paying_players,
      top_countries: countries,
    };
  },
};
