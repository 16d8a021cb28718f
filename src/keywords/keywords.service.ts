/**
 * Keyword intelligence rules: keeping each game's keywords in step with its text, computing the
 * trending lists once per rolled-up day, and the trending, keyword and draft-title answers read
 * from them.
 */
import { TtlCache } from '../cache.js';
import type { Clock } from '../clock.js';
import type { Db } from '../db/index.js';
import { errors } from '../errors.js';
import { CLONE_THRESHOLD, dayKey, findClosestNames } from '../games/index.js';
import { decodeCursor, pageOf } from '../http/pages.js';
import { type SerialisedBody, serialise } from '../http/serializers.js';
import { assertKnownGenre } from '../market/index.js';
import type { Entitlements, PlanName } from '../plans.js';
import * as repo from './keywords.repo.js';
import {
  KEYWORD_PERIODS,
  type KeywordPeriod,
  type KeywordQueryT,
  type KeywordResponseT,
  type KeywordTrendT,
  PERIOD_DAYS,
  type ScoreTitleQueryT,
  type ScoreTitleResponseT,
  type TrendingKeywordsQueryT,
  type TrendingKeywordsResponseT,
} from './keywords.schemas.js';
import { gameTerms, parseKeyword, TERMS_VERSION, textTerms } from './terms.js';
import { MIN_GAMES, NEWCOMER_DAYS, scoreTrends, TRENDS_METHOD } from './trends.js';

const DAY_MS = 86_400_000;
/** Games whose keywords are extracted per transaction. */
const EXTRACT_BATCH = 2000;
/** Trending pages are served from memory this long (the lists change once a day). */
export const LIST_CACHE_MS = 60_000;
/** A keyword's history and related keywords: this long. */
export const DETAIL_CACHE_MS = 10 * 60_000;
export const HISTORY_DAYS = 90;
const RELATED = 10;
const CLOSEST_TITLES = 5;

export interface KeywordsDeps {
  db: Db;
  clock: Clock;
  entitlements: Entitlements;
}

const addDays = (day: string, days: number) => dayKey(Date.parse(`${day}T00:00:00Z`) + days * DAY_MS);

function toApi(r: repo.TrendRow): KeywordTrendT {
  return {
    keyword: r.keyword,
    games: r.games,
    title_games: r.title_games,
    demand: r.demand,
    previous_demand: r.previous_demand,
    growth: r.growth,
    demand_per_game: r.demand_per_game,
    top3_share: r.top3_share,
    newcomer_share: r.newcomer_share,
    opportunity_score: r.score,
  };
}

/** Whether every word of `a` appears, in order and next to each other, in `b`. */
function contains(b: string, a: string): boolean {
  return ` ${b} `.includes(` ${a} `);
}

export class KeywordService {
  private readonly lists = new TtlCache<SerialisedBody>(LIST_CACHE_MS, 2000);
  private readonly keywordPages = new TtlCache<KeywordResponseT>(LIST_CACHE_MS, 1000);
  private readonly details = new TtlCache<Pick<KeywordResponseT, 'history' | 'related'>>(
    DETAIL_CACHE_MS,
    500,
  );

  constructor(private readonly deps: KeywordsDeps) {}

  /**
   * Extracts the keywords of every game whose text changed, then, when a newer day has been rolled up
   * than the stored lists cover, computes each period's lists again. Returns what it did.
   */
  async refresh(
    now: Date,
    signal?: AbortSignal,
  ): Promise<{ extracted: number; listsThrough: string | null }> {
    const { db } = this.deps;
    let extracted = 0;
    for (;;) {
      const texts = await repo.changedTexts(db, TERMS_VERSION, EXTRACT_BATCH);
      if (texts.length === 0 || signal?.aborted) break;
      await repo.replaceKeywords(
        db,
        texts.map((t) => ({
          universeId: Number(t.universe_id),
          textHash: t.text_hash,
          terms: gameTerms(t.name, t.description),
        })),
        now,
      );
      extracted += texts.length;
      if (texts.length < EXTRACT_BATCH) break;
    }
    const latest = await repo.latestRolledUpDay(db, dayKey(now.getTime()));
    if (latest === null) return { extracted, listsThrough: null };
    for (const period of KEYWORD_PERIODS) {
      if (signal?.aborted) break;
      const days = PERIOD_DAYS[period];
      if ((await repo.trendsThrough(db, days)) === latest) continue;
      const until = addDays(latest, 1);
      const from = addDays(until, -days);
      const facts = await repo.keywordFacts(db, {
        from,
        until,
        previousFrom: addDays(from, -days),
        newSince: `${addDays(until, -NEWCOMER_DAYS)}T00:00:00Z`,
        minGames: MIN_GAMES,
      });
      await repo.replaceTrends(db, days, scoreTrends(facts, latest), now);
      this.lists.clear();
    }
    return { extracted, listsThrough: latest };
  }

  private cap(plan: PlanName, limit: number): { cap: number; limit: number } {
    const cap = this.deps.entitlements.plans[plan].intelligenceListMax;
    return { cap, limit: Math.min(limit, cap) };
  }

  /** GET /api/keywords/trending, as serialised JSON (pages are kept LIST_CACHE_MS per process). */
  async trending(q: TrendingKeywordsQueryT, plan: PlanName): Promise<SerialisedBody> {
    await assertKnownGenre(this.deps.db, q.genre);
    const { cap, limit } = this.cap(plan, q.limit);
    const afterRank = decodeCursor(q.cursor, 1)?.[0] ?? 0;
    const key = `${q.period}|${q.genre ?? ''}|${q.sort}|${afterRank}|${limit}|${cap}`;
    return this.lists.get(key, this.deps.clock.now().getTime(), async () => {
      const days = PERIOD_DAYS[q.period];
      const [{ rows, total }, through] = await Promise.all([
        repo.trendPage(this.deps.db, {
          periodDays: days,
          genre: q.genre ?? '',
          sort: q.sort,
          afterRank,
          limit: limit + 1,
        }),
        repo.trendsThrough(this.deps.db, days),
      ]);
      const rank = (r: repo.TrendRow) =>
        q.sort === 'opportunity' ? r.rank_score : q.sort === 'demand' ? r.rank_demand : r.rank_growth;
      const { page, next_cursor } = pageOf(rows, limit, (r) => [rank(r)]);
      const body: TrendingKeywordsResponseT = {
        period: q.period,
        genre: q.genre ?? null,
        through_day: through,
        sort: q.sort,
        total,
        items: page.map((r) => ({ rank: rank(r), trend: toApi(r) })),
        next_cursor,
        limit_cap: cap,
        method: TRENDS_METHOD,
      };
      return serialise(body);
    });
  }

  /** GET /api/keywords/{keyword}: an answer is kept LIST_CACHE_MS per process (the lists change daily). */
  async keyword(input: string, q: KeywordQueryT, plan: PlanName): Promise<KeywordResponseT> {
    const { cap, limit } = this.cap(plan, q.limit);
    const key = [input, q.period, q.genre ?? '', q.cursor ?? '', limit, cap].join('|');
    return this.keywordPages.get(key, this.deps.clock.now().getTime(), () =>
      this.computeKeyword(input, q, plan),
    );
  }

  private async computeKeyword(input: string, q: KeywordQueryT, plan: PlanName): Promise<KeywordResponseT> {
    const keyword = parseKeyword(input);
    if (keyword === null) {
      throw errors.validation(
        'params.keyword',
        'Not a keyword: give one or two words that are not stop words, platform filler or numbers.',
      );
    }
    await assertKnownGenre(this.deps.db, q.genre);
    const { db } = this.deps;
    const { cap, limit } = this.cap(plan, q.limit);
    const counts = (await repo.keywordCounts(db, [keyword], q.genre)).get(keyword);
    if (!counts) {
      throw errors.notFound(
        `No game the service collects${q.genre ? ` in genre "${q.genre}"` : ''} uses the keyword "${keyword}".`,
      );
    }
    const after = decodeCursor(q.cursor, 2);
    const days = PERIOD_DAYS[q.period];
    const now = this.deps.clock.now();
    const [games, trend, through, detail] = await Promise.all([
      repo.keywordGames(db, {
        keyword,
        genre: q.genre,
        after: after ? { ccu: after[0]!, universeId: after[1]! } : undefined,
        limit: limit + 1,
      }),
      repo.trendRows(db, days, q.genre ?? '', [keyword]),
      repo.trendsThrough(db, days),
      this.details.get(`${keyword}|${q.genre ?? ''}`, now.getTime(), () =>
        this.detail(keyword, q.genre, now),
      ),
    ]);
    const { page, next_cursor } = pageOf(games, limit, (g) => [g.ccu ?? -1, Number(g.universe_id)]);
    return {
      keyword,
      period: q.period,
      genre: q.genre ?? null,
      through_day: through,
      games_total: counts.games,
      title_games_total: counts.title_games,
      trend: trend[0] ? toApi(trend[0]) : null,
      ...detail,
      games: page.map((g) => ({
        place_id: Number(g.place_id),
        universe_id: Number(g.universe_id),
        name: g.name,
        creator: g.creator_name,
        genre: g.genre,
        ccu: g.ccu,
        in_title: g.in_title,
      })),
      next_cursor,
      limit_cap: cap,
      method:
        `${TRENDS_METHOD} History: per UTC day of the last ${HISTORY_DAYS}, the games carrying the keyword now that ` +
        'had a rollup that day and the sum of their mean CCU. Related: keywords carried by the same games, ' +
        'market-wide.',
    };
  }

  private async detail(
    keyword: string,
    genre: string | undefined,
    now: Date,
  ): Promise<Pick<KeywordResponseT, 'history' | 'related'>> {
    const { db } = this.deps;
    const today = dayKey(now.getTime());
    const [history, related, all] = await Promise.all([
      repo.keywordHistory(db, { keyword, genre, from: addDays(today, -HISTORY_DAYS), until: today }),
      repo.coOccurring(db, keyword, 4 * RELATED),
      repo.keywordCounts(db, [keyword], undefined),
    ]);
    const own = all.get(keyword)?.games ?? 0;
    return {
      history: history.map((h) => ({ day: h.day, games: h.games, demand: Math.round(h.demand * 100) / 100 })),
      related: related
        .filter((r) => !contains(r.keyword, keyword) && !contains(keyword, r.keyword))
        .map((r) => ({
          keyword: r.keyword,
          shared_games: r.shared,
          games: r.games,
          jaccard: Math.round((r.shared / (own + r.games - r.shared)) * 10_000) / 10_000,
        }))
        .sort(
          (a, b) =>
            b.shared_games - a.shared_games || b.jaccard - a.jaccard || (a.keyword < b.keyword ? -1 : 1),
        )
        .slice(0, RELATED),
    };
  }

  /** GET /api/keywords/score-title. */
  async scoreTitle(q: ScoreTitleQueryT): Promise<ScoreTitleResponseT> {
    await assertKnownGenre(this.deps.db, q.genre);
    const { db } = this.deps;
    const terms = textTerms(q.title);
    const days = PERIOD_DAYS['30d'];
    const [rows, counts, through, closest] = await Promise.all([
      repo.trendRows(db, days, q.genre, terms),
      repo.keywordCounts(db, terms, q.genre),
      repo.trendsThrough(db, days),
      findClosestNames(db, { genre: q.genre, title: q.title }, CLOSEST_TITLES),
    ]);
    const byKeyword = new Map(rows.map((r) => [r.keyword, r]));
    const listed = rows.map((r) => r.score);
    return {
      title: q.title,
      genre: q.genre,
      period: '30d' satisfies KeywordPeriod,
      through_day: through,
      keywords: terms.map((keyword) => {
        const row = byKeyword.get(keyword);
        const c = counts.get(keyword);
        return {
          keyword,
          games: c?.games ?? 0,
          title_games: c?.title_games ?? 0,
          trend: row ? toApi(row) : null,
        };
      }),
      mean_opportunity_score:
        listed.length === 0
          ? null
          : Math.round((listed.reduce((a, b) => a + b, 0) / listed.length) * 10) / 10,
      closest_titles: closest.map((m) => ({
        place_id: Number(m.place_id),
        name: m.name,
        creator: m.creator,
        ccu: m.ccu,
        similarity: m.similarity,
      })),
      clone_risk: closest.some((m) => m.similarity >= CLONE_THRESHOLD),
      method:
        'Keywords: the title’s words and two-word phrases, found as in the lists. Each keyword’s figures are its row ' +
        `in the genre's 30-day list (null when under ${MIN_GAMES} games), games and title_games count the genre's ` +
        'games carrying it now. Closest titles: games of the genre whose normalised name contains the title’s ' +
        'words or close variants (pg_trgm word similarity ≥ 0.7), scored by the Jaccard similarity of the ' +
        'trigrams of both names once copycat markers ([UPDATE], NEW, X, version numbers) are peeled off, as ' +
        `clone detection does; clone_risk: one scores ≥ ${CLONE_THRESHOLD}. ${TRENDS_METHOD}`,
    };
  }
}
