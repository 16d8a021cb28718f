/**
 * GET /api/intelligence/success-patterns: reads the games with readings in the period, keeps those
 * with enough history, builds their features and hands them to the pure comparison
 * (success-patterns.ts). Answers are kept per (genre, period) for CACHE_MS in each process.
 */
import { TtlCache } from '../cache.js';
import type { Clock } from '../clock.js';
import type { Db } from '../db/index.js';
import { dayKey } from '../games/index.js';
import { type SerialisedBody, serialise } from '../http/serializers.js';
import { assertKnownGenre } from '../market/index.js';
import {
  analysePatterns,
  MIN_ELIGIBLE,
  MIN_GROUP,
  MIN_KEYWORD_GAMES,
  type PatternGame,
  TITLE_KEYWORDS,
} from './success-patterns.js';
import * as repo from './success-patterns.repo.js';
import {
  PATTERN_PERIOD_DAYS,
  type SuccessPatternsQueryT,
  type SuccessPatternsResponseT,
} from './success-patterns.schemas.js';

const DAY_MS = 86_400_000;
/** Share of each window's days that need a reading. */
export const MIN_COVERAGE = 0.8;
/** Baseline mean daily CCU a game needs: below it a few players more or less is a huge "growth". */
export const MIN_BASELINE_CCU = 10;
/** Update cadence is measured over this many days (fewer when the game's history is shorter). */
export const UPDATE_DAYS = 90;
/** Answers are kept this long per (genre, period): the underlying data changes once a day. */
export const CACHE_MS = 60 * 60_000;

export const PATTERNS_METHOD =
  'Growth: a game’s mean daily CCU over the period’s complete UTC days (through through_day, the last rolled-up ' +
  'day) against the same number of days before, minus 1. Eligible: readings on at least ' +
  `${MIN_COVERAGE * 100}% of the days of both windows and a baseline mean of at least ${MIN_BASELINE_CCU} CCU ` +
  `(so tiny games’ noise does not dominate); at least ${MIN_ELIGIBLE} eligible games are needed, else features ` +
  'is empty and reason says why. Top quartile: growth at or above the 75th percentile of the eligible games ' +
  '(linear interpolation); the rest: the other eligible games. Features, as stored now: age in days since the ' +
  `platform creation date; updates per 30 days over the last ${UPDATE_DAYS} days (fewer when the game’s daily ` +
  'history is shorter); max players per server; game passes, their median and highest price (Robux; games whose ' +
  'passes were never read have none); like ratio up / (up + down); favourites per 1,000 visits; description ' +
  'length in characters; title length in words. Numeric features: each group’s median and Cliff’s δ (top over ' +
  'rest: P(top > rest) − P(top < rest), −1..1), chosen because these values are skewed, bounded and tied and δ ' +
  'uses only their order (no transform or outlier moves it); 95% interval from Cliff’s consistent variance ' +
  'estimate with his asymmetric interval (the Wilson bound of the smaller group when the groups do not overlap); ' +
  `measured when each group has at least ${MIN_GROUP} values. Title keywords: the ${TITLE_KEYWORDS} commonest ` +
  `keywords (words and two-word phrases, as the keyword lists cut titles) on at least ${MIN_KEYWORD_GAMES} ` +
  'eligible titles; the share of each group whose title has it and the difference with Newcombe’s hybrid score ' +
  'interval (for yes/no data Cliff’s δ is that difference, so both sort on one scale). pattern: a sentence only ' +
  'when the 95% interval excludes zero. Each interval is 95% on its own, not adjusted for the number of ' +
  'features compared: with about 20 features expect about one chance pattern when nothing differs. These are ' +
  'associations among the games that grew, not causes.';

export interface SuccessPatternsDeps {
  db: Db;
  clock: Clock;
}

const addDays = (day: string, days: number) => dayKey(Date.parse(`${day}T00:00:00Z`) + days * DAY_MS);

/** The features of one stored game as of `now` (null: not known). */
export function patternGame(r: repo.PatternGameRow, baseline: number, now: Date): PatternGame {
  const nowMs = now.getTime();
  const historyDays = Math.min(
    UPDATE_DAYS,
    Math.max(1, (nowMs - Date.parse(`${r.first_day}T00:00:00Z`)) / DAY_MS),
  );
  const votes = (r.up_votes ?? 0) + (r.down_votes ?? 0);
  return {
    universeId: r.universe_id,
    name: r.name,
    current: r.current,
    baseline,
    features: {
      age_days: r.created_at ? (nowMs - r.created_at.getTime()) / DAY_MS : null,
      updates_per_30d: (r.updates * 30) / historyDays,
      max_players: r.max_players,
      gamepass_count: r.gamepass_count,
      gamepass_median_price: r.gamepass_median_price,
      gamepass_max_price: r.gamepass_max_price,
      like_ratio: votes > 0 ? (r.up_votes ?? 0) / votes : null,
      favorites_per_1k_visits:
        r.visits && r.visits > 0 && r.favorites !== null ? (1000 * r.favorites) / r.visits : null,
      description_length: r.description_length,
      title_words: r.name.trim().split(/\s+/).filter(Boolean).length,
    },
  };
}

export class SuccessPatternService {
  /** Serialised once per genre and period: a repeated read costs neither a query nor a stringify. */
  private readonly cache = new TtlCache<SerialisedBody>(CACHE_MS, 200);

  constructor(private readonly deps: SuccessPatternsDeps) {}

  async patterns(q: SuccessPatternsQueryT): Promise<SerialisedBody> {
    await assertKnownGenre(this.deps.db, q.genre);
    const now = this.deps.clock.now();
    return this.cache.get(`${q.genre ?? ''}|${q.period}`, now.getTime(), async () =>
      serialise(await this.compute(q, now)),
    );
  }

  private async compute(q: SuccessPatternsQueryT, now: Date): Promise<SuccessPatternsResponseT> {
    const days = PATTERN_PERIOD_DAYS[q.period];
    const header = {
      genre: q.genre ?? null,
      period: q.period,
      computed_at: now.toISOString(),
      method: PATTERNS_METHOD,
    };
    const empty = { games: 0, median_growth: null };
    const through = await repo.latestRolledUpDay(this.deps.db, dayKey(now.getTime()));
    if (through === null) {
      return {
        ...header,
        through_day: null,
        current_window: null,
        baseline_window: null,
        games_with_readings: 0,
        eligible_games: 0,
        growth_threshold: null,
        top_quartile: empty,
        rest: empty,
        features: [],
        reason: 'No day has been rolled up yet.',
      };
    }
    const until = addDays(through, 1);
    const from = addDays(until, -days);
    const baselineFrom = addDays(from, -days);
    const rows = await repo.patternGames(this.deps.db, {
      genre: q.genre ?? null,
      from,
      until,
      baselineFrom,
      updatesSince: new Date(now.getTime() - UPDATE_DAYS * DAY_MS),
      updatesUntil: now,
    });
    const minDays = Math.ceil(MIN_COVERAGE * days);
    const eligible = rows.flatMap((r) =>
      r.current_days >= minDays &&
      r.baseline_days >= minDays &&
      r.baseline !== null &&
      r.baseline >= MIN_BASELINE_CCU
        ? [patternGame(r, r.baseline, now)]
        : [],
    );
    const analysis = analysePatterns(eligible);
    return {
      ...header,
      through_day: through,
      current_window: { from, to: through },
      baseline_window: { from: baselineFrom, to: addDays(from, -1) },
      games_with_readings: rows.length,
      eligible_games: eligible.length,
      growth_threshold: analysis?.growthThreshold ?? null,
      top_quartile: analysis ? { games: analysis.top.n, median_growth: analysis.top.medianGrowth } : empty,
      rest: analysis ? { games: analysis.rest.n, median_growth: analysis.rest.medianGrowth } : empty,
      features: analysis?.features ?? [],
      reason: analysis
        ? null
        : `${eligible.length} of ${rows.length} games with readings are eligible (readings on at least ${minDays} ` +
          `of the ${days} days of both windows and a baseline of at least ${MIN_BASELINE_CCU} CCU); ` +
          `patterns need at least ${MIN_ELIGIBLE}.`,
    };
  }
}
