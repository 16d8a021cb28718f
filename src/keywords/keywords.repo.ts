/** Keyword SQL: each game's keywords, the daily trend lists built from them, and the reads behind the endpoints. */
import type { Db, Queryable } from '../db/index.js';
import type { GameTerm } from './terms.js';

export interface GameText {
  universe_id: number;
  name: string;
  description: string;
  text_hash: string;
}

const TEXT_HASH = `md5($1::text || chr(10) || g.name || chr(10) || g.description)`;

/** Up to `limit` games whose keywords were never extracted or came from another text (or rules version). */
export async function changedTexts(db: Queryable, version: number, limit: number): Promise<GameText[]> {
  const res = await db.query<GameText>(
    `SELECT g.universe_id, g.name, g.description, ${TEXT_HASH} AS text_hash
       FROM games g LEFT JOIN game_keyword_sources s USING (universe_id)
      WHERE s.text_hash IS DISTINCT FROM ${TEXT_HASH}
      ORDER BY g.universe_id LIMIT $2`,
    [String(version), limit],
  );
  return res.rows;
}

/** Replaces the keywords of these games and records the text they came from, in one transaction. */
export async function replaceKeywords(
  db: Db,
  games: { universeId: number; textHash: string; terms: GameTerm[] }[],
  now: Date,
): Promise<void> {
  const ids = games.map((g) => g.universeId);
  const keywordIds: number[] = [];
  const keywords: string[] = [];
  const inTitle: boolean[] = [];
  for (const g of games) {
    for (const t of g.terms) {
      keywordIds.push(g.universeId);
      keywords.push(t.keyword);
      inTitle.push(t.inTitle);
    }
  }
  await db.transaction(async (tx) => {
    await tx.query('DELETE FROM game_keywords WHERE universe_id = ANY($1::bigint[])', [ids]);
    await tx.query(
      `INSERT INTO game_keywords (keyword, universe_id, in_title)
       SELECT * FROM unnest($1::text[], $2::bigint[], $3::boolean[])`,
      [keywords, keywordIds, inTitle],
    );
    await tx.query(
      `INSERT INTO game_keyword_sources (universe_id, text_hash, extracted_at)
       SELECT u, h, $3 FROM unnest($1::bigint[], $2::text[]) AS x (u, h)
       ON CONFLICT (universe_id) DO UPDATE SET text_hash = EXCLUDED.text_hash, extracted_at = EXCLUDED.extracted_at`,
      [ids, games.map((g) => g.textHash), now],
    );
  });
}

/** The last UTC day before `today` with a daily rollup; null before the first. */
export async function latestRolledUpDay(db: Queryable, today: string): Promise<string | null> {
  const res = await db.query<{ day: string | null }>(
    'SELECT max(day)::text AS day FROM ccu_daily WHERE day < $1::date',
    [today],
  );
  return res.rows[0]?.day ?? null;
}

/** The day the stored lists of a period run through (null when none are stored). */
export async function trendsThrough(db: Queryable, periodDays: number): Promise<string | null> {
  const res = await db.query<{ day: string | null }>(
    'SELECT max(through_day)::text AS day FROM keyword_trends WHERE period_days = $1',
    [periodDays],
  );
  return res.rows[0]?.day ?? null;
}

/** What a keyword's scores are built from, in one scope (a genre, or '' for every genre). */
export interface KeywordFacts {
  genre: string;
  keyword: string;
  games: number;
  title_games: number;
  demand: number;
  previous_demand: number;
  top3: number;
  top20: number;
  top20_new: number;
}

/**
 * For every keyword with at least `minGames` games with readings in [from, until), overall and per
 * genre: those games, how many have it in the title, the sum of their mean daily CCU over the period
 * and over the same number of days before it, the CCU of its 3 and its 20 busiest games, and of those
 * 20 the newcomers' (created on or after `newSince`).
 */
export async function keywordFacts(
  db: Queryable,
  p: { from: string; until: string; previousFrom: string; newSince: string; minGames: number },
): Promise<KeywordFacts[]> {
  const aggregates = (rank: string) => `count(*) FILTER (WHERE has_reading)::int AS games,
         count(*) FILTER (WHERE has_reading AND in_title)::int AS title_games,
         sum(ccu)::float8 AS demand, sum(previous_ccu)::float8 AS previous_demand,
         coalesce(sum(ccu) FILTER (WHERE ${rank} <= 3), 0)::float8 AS top3,
         coalesce(sum(ccu) FILTER (WHERE ${rank} <= 20), 0)::float8 AS top20,
         coalesce(sum(ccu) FILTER (WHERE ${rank} <= 20 AND newcomer), 0)::float8 AS top20_new`;
  const res = await db.query<KeywordFacts>(
    `WITH cur AS (
       SELECT universe_id, avg(ccu_avg)::float8 AS ccu FROM ccu_daily
        WHERE day >= $1::date AND day < $2::date GROUP BY universe_id
     ), prev AS (
       SELECT universe_id, avg(ccu_avg)::float8 AS ccu FROM ccu_daily
        WHERE day >= $3::date AND day < $1::date GROUP BY universe_id
     ), g AS (
       SELECT games.universe_id, games.genre, cur.universe_id IS NOT NULL AS has_reading,
              coalesce(cur.ccu, 0) AS ccu, coalesce(prev.ccu, 0) AS previous_ccu,
              coalesce(games.created_at >= $4::timestamptz, false) AS newcomer
         FROM games LEFT JOIN cur USING (universe_id) LEFT JOIN prev USING (universe_id)
        WHERE cur.universe_id IS NOT NULL OR prev.universe_id IS NOT NULL
     ), kg AS (
       SELECT k.keyword, k.in_title, g.*,
              row_number() OVER (PARTITION BY k.keyword ORDER BY g.ccu DESC, g.universe_id) AS rank_all,
              row_number() OVER (PARTITION BY k.keyword, g.genre ORDER BY g.ccu DESC, g.universe_id) AS rank_genre
         FROM game_keywords k JOIN g USING (universe_id)
     )
     SELECT '' AS genre, keyword, ${aggregates('rank_all')}
       FROM kg GROUP BY keyword HAVING count(*) FILTER (WHERE has_reading) >= $5
     UNION ALL
     SELECT genre, keyword, ${aggregates('rank_genre')}
       FROM kg GROUP BY genre, keyword HAVING count(*) FILTER (WHERE has_reading) >= $5`,
    [p.from, p.until, p.previousFrom, p.newSince, p.minGames],
  );
  return res.rows;
}

/** One stored list row. */
export interface TrendRow {
  genre: string;
  keyword: string;
  through_day: string;
  games: number;
  title_games: number;
  demand: number;
  previous_demand: number;
  growth: number | null;
  demand_per_game: number;
  top3_share: number;
  newcomer_share: number;
  score: number;
  rank_score: number;
  rank_demand: number;
  rank_growth: number;
}

const TREND_COLUMNS = `genre, keyword, through_day::text AS through_day, games, title_games, demand, previous_demand,
  growth, demand_per_game, top3_share, newcomer_share, score, rank_score, rank_demand, rank_growth`;

/** Replaces a period's lists (every scope) with `rows`, in one transaction. */
export async function replaceTrends(
  db: Db,
  periodDays: number,
  rows: TrendRow[],
  computedAt: Date,
): Promise<void> {
  const col = <K extends keyof TrendRow>(k: K) => rows.map((r) => r[k]);
  await db.transaction(async (tx) => {
    await tx.query('DELETE FROM keyword_trends WHERE period_days = $1', [periodDays]);
    await tx.query(
      `INSERT INTO keyword_trends (period_days, computed_at, genre, keyword, through_day, games, title_games, demand,
              previous_demand, growth, demand_per_game, top3_share, newcomer_share, score, rank_score,
              rank_demand, rank_growth)
       SELECT $1, $2, * FROM unnest($3::text[], $4::text[], $5::date[], $6::int[], $7::int[], $8::float8[],
              $9::float8[], $10::float8[], $11::float8[], $12::float8[], $13::float8[], $14::int[], $15::int[],
              $16::int[], $17::int[])`,
      [
        periodDays,
        computedAt,
        col('genre'),
        col('keyword'),
        col('through_day'),
        col('games'),
        col('title_games'),
        col('demand'),
        col('previous_demand'),
        col('growth'),
        col('demand_per_game'),
        col('top3_share'),
        col('newcomer_share'),
        col('score'),
        col('rank_score'),
        col('rank_demand'),
        col('rank_growth'),
      ],
    );
  });
  await db.exec('ANALYZE keyword_trends');
}

export type TrendSort = 'opportunity' | 'demand' | 'growth';
const RANK: Record<TrendSort, string> = {
  opportunity: 'rank_score',
  demand: 'rank_demand',
  growth: 'rank_growth',
};

/** A page of a stored list: rows after position `afterRank` in the sort order, and the list's length. */
export async function trendPage(
  db: Queryable,
  p: { periodDays: number; genre: string; sort: TrendSort; afterRank: number; limit: number },
): Promise<{ rows: TrendRow[]; total: number }> {
  const rank = RANK[p.sort];
  const [page, count] = await Promise.all([
    db.query<TrendRow>(
      `SELECT ${TREND_COLUMNS} FROM keyword_trends
        WHERE period_days = $1 AND genre = $2 AND ${rank} > $3 ORDER BY ${rank} LIMIT $4`,
      [p.periodDays, p.genre, p.afterRank, p.limit],
    ),
    db.query<{ total: number }>(
      'SELECT count(*)::int AS total FROM keyword_trends WHERE period_days = $1 AND genre = $2',
      [p.periodDays, p.genre],
    ),
  ]);
  return { rows: page.rows, total: count.rows[0]?.total ?? 0 };
}

/** The stored rows of these keywords in one list (absent: under the minimum of games). */
export async function trendRows(
  db: Queryable,
  periodDays: number,
  genre: string,
  keywords: string[],
): Promise<TrendRow[]> {
  const res = await db.query<TrendRow>(
    `SELECT ${TREND_COLUMNS} FROM keyword_trends
      WHERE period_days = $1 AND genre = $2 AND keyword = ANY($3::text[])`,
    [periodDays, genre, keywords],
  );
  return res.rows;
}

export interface KeywordGameRow {
  universe_id: number;
  place_id: number;
  name: string;
  creator_name: string;
  genre: string;
  ccu: number | null;
  in_title: boolean;
}

/** Games with the keyword, busiest first (no reading last), after the (ccu, universe id) of a previous page. */
export async function keywordGames(
  db: Queryable,
  p: { keyword: string; genre?: string; after?: { ccu: number; universeId: number }; limit: number },
): Promise<KeywordGameRow[]> {
  const res = await db.query<KeywordGameRow>(
    `SELECT g.universe_id, g.place_id, g.name, g.creator_name, g.genre, g.ccu, k.in_title
       FROM game_keywords k JOIN games g USING (universe_id)
      WHERE k.keyword = $1 AND ($2::text IS NULL OR g.genre = $2)
        AND ($3::int IS NULL OR (coalesce(g.ccu, -1), -g.universe_id) < ($3::int, -$4::bigint))
      ORDER BY coalesce(g.ccu, -1) DESC, g.universe_id LIMIT $5`,
    [p.keyword, p.genre ?? null, p.after?.ccu ?? null, p.after?.universeId ?? null, p.limit],
  );
  return res.rows;
}

/** For each of `keywords`: how many games carry it (in any text) and how many in their title. */
export async function keywordCounts(
  db: Queryable,
  keywords: string[],
  genre: string | undefined,
): Promise<Map<string, { games: number; title_games: number }>> {
  const res = await db.query<{ keyword: string; games: number; title_games: number }>(
    `SELECT k.keyword, count(*)::int AS games, count(*) FILTER (WHERE k.in_title)::int AS title_games
       FROM game_keywords k JOIN games g USING (universe_id)
      WHERE k.keyword = ANY($1::text[]) AND ($2::text IS NULL OR g.genre = $2)
      GROUP BY k.keyword`,
    [keywords, genre ?? null],
  );
  return new Map(res.rows.map((r) => [r.keyword, { games: r.games, title_games: r.title_games }]));
}

/** Per UTC day in [from, until): the games with the keyword that had readings and their summed mean CCU. */
export async function keywordHistory(
  db: Queryable,
  p: { keyword: string; genre?: string; from: string; until: string },
): Promise<{ day: string; games: number; demand: number }[]> {
  const res = await db.query<{ day: string; games: number; demand: number }>(
    `SELECT d.day::text AS day, count(*)::int AS games, sum(d.ccu_avg)::float8 AS demand
       FROM game_keywords k JOIN games g USING (universe_id) JOIN ccu_daily d USING (universe_id)
      WHERE k.keyword = $1 AND ($2::text IS NULL OR g.genre = $2) AND d.day >= $3::date AND d.day < $4::date
      GROUP BY d.day ORDER BY d.day`,
    [p.keyword, p.genre ?? null, p.from, p.until],
  );
  return res.rows;
}

/** Keywords found on the same games as `keyword`, most shared first, with how many games each has. */
export async function coOccurring(
  db: Queryable,
  keyword: string,
  limit: number,
): Promise<{ keyword: string; shared: number; games: number }[]> {
  const res = await db.query<{ keyword: string; shared: number; games: number }>(
    `WITH shared AS (
       SELECT o.keyword, count(*)::int AS shared
         FROM game_keywords k JOIN game_keywords o ON o.universe_id = k.universe_id AND o.keyword <> k.keyword
        WHERE k.keyword = $1 GROUP BY o.keyword ORDER BY shared DESC, o.keyword LIMIT $2
     )
     SELECT s.keyword, s.shared,
            (SELECT count(*)::int FROM game_keywords c WHERE c.keyword = s.keyword) AS games
       FROM shared s ORDER BY s.shared DESC, s.keyword`,
    [keyword, limit],
  );
  return res.rows;
}
