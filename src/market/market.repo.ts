/** Market SQL: the catalogue, CCU tiers, genre snapshots and stored views. */
import type { Queryable } from '../db/index.js';

export interface GameUpsert {
  universeId: number;
  placeId: number;
  name: string;
  description: string;
  creatorId: number;
  creatorName: string;
  creatorType: string;
  genre: string;
  maxPlayers: number;
  createdAt: Date;
  updatedAt: Date;
  ccu: number;
  visits: number;
  favorites: number;
  upVotes: number | null;
  downVotes: number | null;
  searchText: string;
}

/** Inserts or refreshes games with their latest reading, in one statement per batch. */
export async function upsertGames(db: Queryable, rows: GameUpsert[], observedAt: Date): Promise<void> {
  if (rows.length === 0) return;
  const col = <K extends keyof GameUpsert>(k: K) => rows.map((r) => r[k]);
  await db.query(
    `INSERT INTO games (universe_id, place_id, name, description, creator_id, creator_name, creator_type, genre,
                        max_players, created_at, updated_at, ccu, visits, favorites, up_votes, down_votes,
                        search_text, observed_at, first_seen_at)
     SELECT u.*, $18::timestamptz, $18::timestamptz
       FROM unnest($1::bigint[], $2::bigint[], $3::text[], $4::text[], $5::bigint[], $6::text[], $7::text[], $8::text[],
                   $9::int[], $10::timestamptz[], $11::timestamptz[], $12::int[], $13::bigint[], $14::bigint[],
                   $15::bigint[], $16::bigint[], $17::text[]) AS u
     ON CONFLICT (universe_id) DO UPDATE SET
       place_id = EXCLUDED.place_id, name = EXCLUDED.name, description = EXCLUDED.description,
       creator_id = EXCLUDED.creator_id, creator_name = EXCLUDED.creator_name, creator_type = EXCLUDED.creator_type,
       genre = EXCLUDED.genre, max_players = EXCLUDED.max_players, created_at = EXCLUDED.created_at,
       updated_at = EXCLUDED.updated_at, ccu = EXCLUDED.ccu, visits = EXCLUDED.visits, favorites = EXCLUDED.favorites,
       up_votes = COALESCE(EXCLUDED.up_votes, games.up_votes), down_votes = COALESCE(EXCLUDED.down_votes, games.down_votes),
       search_text = EXCLUDED.search_text, observed_at = EXCLUDED.observed_at
     WHERE games.observed_at IS NULL OR games.observed_at <= EXCLUDED.observed_at`,
    [
      col('universeId'),
      col('placeId'),
      col('name'),
      col('description'),
      col('creatorId'),
      col('creatorName'),
      col('creatorType'),
      col('genre'),
      col('maxPlayers'),
      col('createdAt'),
      col('updatedAt'),
      col('ccu'),
      col('visits'),
      col('favorites'),
      col('upVotes'),
      col('downVotes'),
      col('searchText'),
      observedAt,
    ],
  );
}

/** Games whose reading carries a later `updated` time than the stored one (a game seen for the
 * first time has none to compare with). */
export async function movedUpdateTimes(
  db: Queryable,
  rows: readonly Pick<GameUpsert, 'universeId' | 'updatedAt'>[],
): Promise<{ universeId: number; releasedAt: Date; previousAt: Date }[]> {
  if (rows.length === 0) return [];
  const res = await db.query<{ universe_id: number; released_at: Date; previous_at: Date }>(
    `SELECT u.universe_id::float8 AS universe_id, u.updated_at AS released_at, g.updated_at AS previous_at
       FROM unnest($1::bigint[], $2::timestamptz[]) AS u (universe_id, updated_at)
       JOIN games g ON g.universe_id = u.universe_id
      WHERE u.updated_at > g.updated_at`,
    [rows.map((r) => r.universeId), rows.map((r) => r.updatedAt)],
  );
  return res.rows.map((r) => ({
    universeId: r.universe_id,
    releasedAt: r.released_at,
    previousAt: r.previous_at,
  }));
}

export interface SampleRow {
  universeId: number;
  ts: Date;
  ccu: number;
  visits: number;
}

export async function insertSamples(db: Queryable, rows: SampleRow[]): Promise<void> {
  if (rows.length === 0) return;
  await db.query(
    `INSERT INTO ccu_samples (universe_id, ts, ccu, visits)
     SELECT * FROM unnest($1::bigint[], $2::timestamptz[], $3::int[], $4::bigint[])
     ON CONFLICT (universe_id, ts) DO NOTHING`,
    [rows.map((r) => r.universeId), rows.map((r) => r.ts), rows.map((r) => r.ccu), rows.map((r) => r.visits)],
  );
}

export interface RollupRow {
  universeId: number;
  /** Hour start, or the day as 'YYYY-MM-DD'. */
  at: Date | string;
  ccuAvg: number;
  ccuMax: number;
  samples: number;
  visits: number;
}

/** Writes precomputed rollups (backfill); existing rows are replaced. */
export async function insertRollups(
  db: Queryable,
  tier: 'hourly' | 'daily',
  rows: RollupRow[],
): Promise<void> {
  if (rows.length === 0) return;
  const [table, key, type] =
    tier === 'hourly' ? ['ccu_hourly', 'hour', 'timestamptz'] : ['ccu_daily', 'day', 'date'];
  await db.query(
    `INSERT INTO ${table} (universe_id, ${key}, ccu_avg, ccu_max, samples, visits)
     SELECT * FROM unnest($1::bigint[], $2::${type}[], $3::real[], $4::int[], $5::int[], $6::bigint[])
     ON CONFLICT (universe_id, ${key}) DO UPDATE SET ccu_avg = EXCLUDED.ccu_avg, ccu_max = EXCLUDED.ccu_max,
       samples = EXCLUDED.samples, visits = EXCLUDED.visits`,
    [
      rows.map((r) => r.universeId),
      rows.map((r) => r.at),
      rows.map((r) => r.ccuAvg),
      rows.map((r) => r.ccuMax),
      rows.map((r) => r.samples),
      rows.map((r) => r.visits),
    ],
  );
}

/** Recomputes the hourly rollup of the hour starting at `hour` from its raw samples. */
export async function rollUpHour(db: Queryable, hour: Date): Promise<void> {
  await db.query(
    `INSERT INTO ccu_hourly (universe_id, hour, ccu_avg, ccu_max, samples, visits)
     SELECT universe_id, $1::timestamptz, avg(ccu), max(ccu), count(*), max(visits)
       FROM ccu_samples WHERE ts >= $1 AND ts < $1::timestamptz + interval '1 hour'
      GROUP BY universe_id
     ON CONFLICT (universe_id, hour) DO UPDATE SET ccu_avg = EXCLUDED.ccu_avg, ccu_max = EXCLUDED.ccu_max,
       samples = EXCLUDED.samples, visits = EXCLUDED.visits`,
    [hour],
  );
}

/** Recomputes the daily rollup of `day` ('YYYY-MM-DD', UTC) from its hourly rollups. */
export async function rollUpDay(db: Queryable, day: string): Promise<void> {
  await db.query(
    `INSERT INTO ccu_daily (universe_id, day, ccu_avg, ccu_max, samples, visits)
     SELECT universe_id, $1::date, sum(ccu_avg * samples) / sum(samples), max(ccu_max), sum(samples), max(visits)
       FROM ccu_hourly WHERE hour >= $1::date AND hour < $1::date + 1
      GROUP BY universe_id
     ON CONFLICT (universe_id, day) DO UPDATE SET ccu_avg = EXCLUDED.ccu_avg, ccu_max = EXCLUDED.ccu_max,
       samples = EXCLUDED.samples, visits = EXCLUDED.visits`,
    [day],
  );
}

/** Drops raw samples and hourly rollups past their retention; daily rollups are kept forever. */
export async function applyRetention(db: Queryable, now: Date): Promise<{ samples: number; hourly: number }> {
  const samples = await db.query('DELETE FROM ccu_samples WHERE ts < $1', [
    new Date(now.getTime() - 48 * 3_600_000),
  ]);
  const hourly = await db.query('DELETE FROM ccu_hourly WHERE hour < $1', [
    new Date(now.getTime() - 90 * 86_400_000),
  ]);
  return { samples: samples.rowCount, hourly: hourly.rowCount };
}

/** Refreshes the planner statistics of the catalogue and the CCU tiers (after a bulk write). */
export async function analyseHistory(db: Queryable): Promise<void> {
  await db.exec('ANALYZE games, ccu_samples, ccu_hourly, ccu_daily, genre_snapshots');
}

// Catalogue reads for the other domains: market owns the games table, so every place id → game or
// universe id → game lookup is written here once and the others call these.

/** One game's catalogue row with its latest reading. */
export interface CatalogueGame {
  universe_id: number;
  place_id: number;
  name: string;
  description: string;
  creator_name: string;
  creator_type: string;
  /** The creator's user or group id (null when the platform gave none). */
  creator_id: number | null;
  genre: string;
  max_players: number | null;
  created_at: Date | null;
  updated_at: Date | null;
  ccu: number | null;
  visits: number | null;
  favorites: number | null;
  up_votes: number | null;
  down_votes: number | null;
  gamepass_count: number | null;
  observed_at: Date | null;
}

/** The game whose root place this is, if the catalogue has it. */
export async function findGameByPlaceId(db: Queryable, placeId: number): Promise<CatalogueGame | undefined> {
  const res = await db.query<CatalogueGame>(
    `SELECT universe_id, place_id, name, description, creator_name, creator_type, creator_id::float8 AS creator_id,
            genre, max_players, created_at, updated_at, ccu, visits, favorites, up_votes, down_votes, gamepass_count,
            observed_at
       FROM games WHERE place_id = $1`,
    [placeId],
  );
  return res.rows[0];
}

/** A game's name, genre and latest CCU (what alerts read). */
export interface GameReading {
  universe_id: number;
  name: string;
  genre: string;
  ccu: number | null;
}

export async function findGameByUniverseId(
  db: Queryable,
  universeId: number,
): Promise<GameReading | undefined> {
  const res = await db.query<GameReading>(
    'SELECT universe_id, name, genre, ccu FROM games WHERE universe_id = $1',
    [universeId],
  );
  return res.rows[0];
}

/** The catalogued games among these universe ids (in no particular order). */
export async function gamesByUniverseIds(
  db: Queryable,
  universeIds: readonly number[],
): Promise<GameReading[]> {
  const res = await db.query<GameReading>(
    'SELECT universe_id, name, genre, ccu FROM games WHERE universe_id = ANY($1::bigint[])',
    [universeIds],
  );
  return res.rows;
}

/** Every game of these genres that has a reading, by genre, busiest first (ties by universe id). */
export async function gamesByGenresBusiestFirst(
  db: Queryable,
  genres: readonly string[],
): Promise<GameReading[]> {
  const res = await db.query<GameReading>(
    `SELECT universe_id, name, genre, ccu FROM games
      WHERE genre = ANY($1::text[]) AND ccu IS NOT NULL
      ORDER BY genre, ccu DESC, universe_id`,
    [genres],
  );
  return res.rows;
}

export async function knownUniverseIds(db: Queryable): Promise<number[]> {
  return (await db.query<{ universe_id: number }>('SELECT universe_id FROM games')).rows.map(
    (r) => r.universe_id,
  );
}

/** Games whose pass list is older than `staleBefore` (or never read), most played first. */
export async function gamesNeedingPasses(db: Queryable, staleBefore: Date, limit: number): Promise<number[]> {
  const res = await db.query<{ universe_id: number }>(
    `SELECT universe_id FROM games WHERE passes_checked_at IS NULL OR passes_checked_at < $1
      ORDER BY ccu DESC NULLS LAST LIMIT $2`,
    [staleBefore, limit],
  );
  return res.rows.map((r) => r.universe_id);
}

export async function replacePasses(
  db: Queryable,
  universeId: number,
  passes: { id: number; name: string; price: number | null }[],
  checkedAt: Date,
): Promise<void> {
  const prices = passes
    .map((p) => p.price)
    .filter((p): p is number => p !== null)
    .sort((a, b) => a - b);
  const median =
    prices.length === 0
      ? null
      : prices.length % 2
        ? prices[(prices.length - 1) / 2]!
        : (prices[prices.length / 2 - 1]! + prices[prices.length / 2]!) / 2;
  await db.query('DELETE FROM game_passes WHERE universe_id = $1', [universeId]);
  if (passes.length > 0) {
    await db.query(
      `INSERT INTO game_passes (universe_id, pass_id, name, price)
       SELECT $1, * FROM unnest($2::bigint[], $3::text[], $4::int[])`,
      [universeId, passes.map((p) => p.id), passes.map((p) => p.name), passes.map((p) => p.price)],
    );
  }
  await db.query(
    'UPDATE games SET gamepass_count = $2, gamepass_median_price = $3, passes_checked_at = $4 WHERE universe_id = $1',
    [universeId, passes.length, median, checkedAt],
  );
}

/** Per-genre totals from the latest readings: active = CCU ≥ 10. */
export async function insertGenreSnapshot(db: Queryable, ts: Date): Promise<void> {
  await db.query(
    `INSERT INTO genre_snapshots (genre, ts, total_games, active_games, total_ccu)
     SELECT genre, $1, count(*), count(*) FILTER (WHERE ccu >= 10), COALESCE(sum(ccu), 0)
       FROM games WHERE ccu IS NOT NULL GROUP BY genre
     ON CONFLICT (genre, ts) DO NOTHING`,
    [ts],
  );
}

export async function hasGenreSnapshot(db: Queryable, ts: Date): Promise<boolean> {
  return (await db.query('SELECT 1 FROM genre_snapshots WHERE ts = $1 LIMIT 1', [ts])).rowCount > 0;
}

export async function saveView(db: Queryable, name: string, computedAt: Date, body: unknown): Promise<void> {
  await db.query(
    `INSERT INTO market_views (name, computed_at, body) VALUES ($1, $2, $3)
     ON CONFLICT (name) DO UPDATE SET computed_at = EXCLUDED.computed_at, body = EXCLUDED.body`,
    [name, computedAt, JSON.stringify(body)],
  );
}

export async function loadView<T>(
  db: Queryable,
  name: string,
): Promise<{ computedAt: Date; body: T } | undefined> {
  const res = await db.query<{ computed_at: Date; body: T }>(
    'SELECT computed_at, body FROM market_views WHERE name = $1',
    [name],
  );
  const row = res.rows[0];
  return row ? { computedAt: row.computed_at, body: row.body } : undefined;
}

export async function insertGenreSnapshotRows(
  db: Queryable,
  ts: Date,
  rows: { genre: string; totalGames: number; activeGames: number; totalCcu: number }[],
): Promise<void> {
  if (rows.length === 0) return;
  await db.query(
    `INSERT INTO genre_snapshots (genre, ts, total_games, active_games, total_ccu)
     SELECT u.genre, $1, u.total, u.active, u.ccu
       FROM unnest($2::text[], $3::int[], $4::int[], $5::bigint[]) AS u(genre, total, active, ccu)
     ON CONFLICT (genre, ts) DO NOTHING`,
    [
      ts,
      rows.map((r) => r.genre),
      rows.map((r) => r.totalGames),
      rows.map((r) => r.activeGames),
      rows.map((r) => r.totalCcu),
    ],
  );
}

/** When each stored view was last computed. */
export async function viewTimes(db: Queryable): Promise<Map<string, Date>> {
  const res = await db.query<{ name: string; computed_at: Date }>(
    'SELECT name, computed_at FROM market_views',
  );
  return new Map(res.rows.map((r) => [r.name, r.computed_at]));
}

/** The moment a stored view was computed (cheap: no body). */
export async function viewTime(db: Queryable, name: string): Promise<Date | undefined> {
  const res = await db.query<{ computed_at: Date }>('SELECT computed_at FROM market_views WHERE name = $1', [
    name,
  ]);
  return res.rows[0]?.computed_at;
}

export async function startBackfill(db: Queryable, days: number, until: Date, at: Date): Promise<number> {
  const res = await db.query<{ id: number }>(
    'INSERT INTO market_backfills (days, until, started_at) VALUES ($1, $2, $3) RETURNING id',
    [days, until, at],
  );
  return res.rows[0]!.id;
}

export async function completeBackfill(db: Queryable, id: number, at: Date): Promise<void> {
  await db.query('UPDATE market_backfills SET completed_at = $2 WHERE id = $1', [id, at]);
}

/** True once a backfill ran to its end. */
export async function hasCompletedBackfill(db: Queryable): Promise<boolean> {
  return (
    (await db.query('SELECT 1 FROM market_backfills WHERE completed_at IS NOT NULL LIMIT 1')).rowCount > 0
  );
}

/** When the latest backfill that ran to its end completed (logical time), if any. */
export async function lastBackfillAt(db: Queryable): Promise<Date | null> {
  const res = await db.query<{ at: Date | null }>(
    'SELECT max(completed_at) AS at FROM market_backfills WHERE completed_at IS NOT NULL',
  );
  return res.rows[0]?.at ?? null;
}

/** Whether any game the service collects has this genre. */
export async function genreExists(db: Queryable, genre: string): Promise<boolean> {
  const res = await db.query<{ found: boolean }>(
    'SELECT EXISTS (SELECT 1 FROM games WHERE genre = $1) AS found',
    [genre],
  );
  return res.rows[0]?.found ?? false;
}
