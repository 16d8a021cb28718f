/**
 * Feed SQL: follows, the market events the collector's hook produces (launches, updates, CCU
 * records, rank entries, clones) and the per-user selection of them.
 */
import type { Db, Queryable } from '../db/index.js';

export type FollowKind = 'game' | 'user' | 'group';

export interface FollowRow {
  kind: FollowKind;
  target_id: number;
  created_at: Date;
  /** game: its name; user or group: the creator name on its busiest game (null when none is collected). */
  name: string | null;
  place_id: number | null;
}

export async function countFollows(db: Queryable, userId: number): Promise<number> {
  const res = await db.query<{ n: number }>(
    'SELECT count(*)::int AS n FROM intelligence_follows WHERE user_id = $1',
    [userId],
  );
  return res.rows[0]?.n ?? 0;
}

/** Adds a follow; false when it already existed. */
export async function addFollow(
  db: Queryable,
  userId: number,
  kind: FollowKind,
  targetId: number,
  now: Date,
): Promise<boolean> {
  const res = await db.query(
    `INSERT INTO intelligence_follows (user_id, kind, target_id, created_at) VALUES ($1, $2, $3, $4)
     ON CONFLICT DO NOTHING`,
    [userId, kind, targetId, now],
  );
  return (res.rowCount ?? 0) > 0;
}

export async function removeFollow(
  db: Queryable,
  userId: number,
  kind: FollowKind,
  targetId: number,
): Promise<void> {
  await db.query('DELETE FROM intelligence_follows WHERE user_id = $1 AND kind = $2 AND target_id = $3', [
    userId,
    kind,
    targetId,
  ]);
}

/** The user's follows, newest first, each with the name of what it follows. */
export async function follows(db: Queryable, userId: number): Promise<FollowRow[]> {
  const res = await db.query<FollowRow>(
    `SELECT f.kind, f.target_id::float8 AS target_id, f.created_at,
            CASE WHEN f.kind = 'game' THEN g.name ELSE c.creator_name END AS name,
            CASE WHEN f.kind = 'game' THEN g.place_id::float8 END AS place_id
       FROM intelligence_follows f
       LEFT JOIN games g ON f.kind = 'game' AND g.universe_id = f.target_id
       LEFT JOIN LATERAL (
         SELECT creator_name FROM games x
          WHERE f.kind <> 'game' AND x.creator_type = initcap(f.kind) AND x.creator_id = f.target_id
          ORDER BY coalesce(x.ccu, -1) DESC, x.universe_id LIMIT 1
       ) c ON true
      WHERE f.user_id = $1 ORDER BY f.created_at DESC, f.kind, f.target_id`,
    [userId],
  );
  return res.rows;
}

/** Whether the service collects a game of this creator. */
export async function creatorExists(db: Queryable, type: 'User' | 'Group', id: number): Promise<boolean> {
  const res = await db.query<{ found: boolean }>(
    'SELECT EXISTS (SELECT 1 FROM games WHERE creator_type = $1 AND creator_id = $2) AS found',
    [type, id],
  );
  return res.rows[0]?.found ?? false;
}

/** Launches: every game created in the last `days` before `now` gets one event (once). */
export async function recordLaunches(db: Queryable, now: Date, days: number): Promise<number> {
  const res = await db.query(
    `INSERT INTO market_events (kind, universe_id, creator_type, creator_id, occurred_at, detected_at, data)
     SELECT 'launch', universe_id, creator_type, creator_id, created_at, $1, jsonb_build_object('ccu', ccu)
       FROM games WHERE created_at > $1::timestamptz - make_interval(days => $2) AND created_at <= $1
      ORDER BY created_at, universe_id
     ON CONFLICT (universe_id) WHERE kind = 'launch' DO NOTHING`,
    [now, days],
  );
  return res.rowCount ?? 0;
}

/** Update events for updates the collector just stored (their games' creators as now). */
export async function recordUpdateEvents(
  db: Queryable,
  updates: { universeId: number; releasedAt: Date; previousAt: Date | null; detectedAt: Date }[],
): Promise<void> {
  if (updates.length === 0) return;
  await db.query(
    `INSERT INTO market_events (kind, universe_id, creator_type, creator_id, occurred_at, detected_at, data)
     SELECT 'update', g.universe_id, g.creator_type, g.creator_id, u.released, u.detected,
            jsonb_build_object('previous_update_at', u.previous)
       FROM unnest($1::bigint[], $2::timestamptz[], $3::timestamptz[], $4::timestamptz[])
            AS u (universe_id, released, previous, detected)
       JOIN games g USING (universe_id)
      ORDER BY u.released, g.universe_id
     ON CONFLICT (universe_id, occurred_at) WHERE kind = 'update' DO NOTHING`,
    [
      updates.map((u) => u.universeId),
      updates.map((u) => u.releasedAt),
      updates.map((u) => u.previousAt),
      updates.map((u) => u.detectedAt),
    ],
  );
}

/** Records for games seen for the first time: the highest daily maximum so far, or the latest reading. */
export async function seedCcuRecords(db: Queryable, now: Date): Promise<void> {
  await db.query(
    `INSERT INTO game_ccu_records (universe_id, record_ccu, record_at)
     SELECT g.universe_id, greatest(coalesce(max(d.ccu_max), 0), g.ccu), $1
       FROM games g LEFT JOIN ccu_daily d USING (universe_id)
      WHERE g.ccu IS NOT NULL AND NOT EXISTS (SELECT 1 FROM game_ccu_records r WHERE r.universe_id = g.universe_id)
      GROUP BY g.universe_id, g.ccu`,
    [now],
  );
}

/**
 * New CCU records: games at least `minAgeDays` old whose latest reading beats their record by
 * `minRatio` and `minGain` CCU; each becomes an event and the new record. Returns how many.
 */
export async function recordCcuRecords(
  db: Queryable,
  now: Date,
  p: { minRatio: number; minGain: number; minAgeDays: number },
): Promise<number> {
  const res = await db.query(
    `WITH beaten AS (
       SELECT r.universe_id, r.record_ccu AS previous, r.record_at AS previous_at, g.ccu, g.creator_type, g.creator_id
         FROM game_ccu_records r JOIN games g USING (universe_id)
        WHERE g.ccu >= r.record_ccu * $2::float8 AND g.ccu >= r.record_ccu + $3::int
          AND g.created_at <= $1::timestamptz - make_interval(days => $4)
     ), moved AS (
       UPDATE game_ccu_records r SET record_ccu = b.ccu, record_at = $1 FROM beaten b
        WHERE r.universe_id = b.universe_id RETURNING r.universe_id
     )
     INSERT INTO market_events (kind, universe_id, creator_type, creator_id, occurred_at, detected_at, data)
     SELECT 'ccu_record', b.universe_id, b.creator_type, b.creator_id, $1, $1,
            jsonb_build_object('ccu', b.ccu, 'previous_record', b.previous, 'previous_record_at', b.previous_at)
       FROM beaten b JOIN moved m USING (universe_id) ORDER BY b.universe_id`,
    [now, p.minRatio, p.minGain, p.minAgeDays],
  );
  return res.rowCount ?? 0;
}

/**
 * Entries into the top 100 by CCU and each genre's top 10: a game in one now that was not in it in
 * the last `quietHours` becomes an event (none on the very first run, when nothing was known), and
 * every game in one is marked seen there now.
 */
export async function recordRankEntries(db: Db, now: Date, quietHours: number): Promise<number> {
  return db.transaction(async (tx) => {
    const known = await tx.query<{ known: boolean }>(
      'SELECT EXISTS (SELECT 1 FROM market_rank_presence) AS known',
    );
    const ranked = `WITH ranked AS (
         SELECT universe_id, genre, creator_type, creator_id, ccu,
                row_number() OVER (ORDER BY ccu DESC, universe_id) AS rank_all,
                row_number() OVER (PARTITION BY genre ORDER BY ccu DESC, universe_id) AS rank_genre
           FROM games WHERE ccu > 0
       ), cur AS (
         SELECT 'top100' AS scope, universe_id, genre, creator_type, creator_id, ccu, rank_all AS rank
           FROM ranked WHERE rank_all <= 100
         UNION ALL
         SELECT 'genre:' || genre, universe_id, genre, creator_type, creator_id, ccu, rank_genre
           FROM ranked WHERE rank_genre <= 10
       )`;
    let entries = 0;
    if (known.rows[0]?.known) {
      const res = await tx.query(
        `${ranked}
         INSERT INTO market_events (kind, universe_id, creator_type, creator_id, occurred_at, detected_at, data)
         SELECT CASE WHEN c.scope = 'top100' THEN 'top100_entry' ELSE 'genre_top10_entry' END, c.universe_id,
                c.creator_type, c.creator_id, $1, $1, jsonb_build_object('rank', c.rank, 'ccu', c.ccu, 'genre', c.genre)
           FROM cur c LEFT JOIN market_rank_presence p ON p.scope = c.scope AND p.universe_id = c.universe_id
          WHERE p.universe_id IS NULL OR p.last_seen_at < $1::timestamptz - make_interval(hours => $2)
          ORDER BY c.scope <> 'top100', c.scope, c.rank`,
        [now, quietHours],
      );
      entries = res.rowCount ?? 0;
    }
    await tx.query(
      `${ranked}
       INSERT INTO market_rank_presence (scope, universe_id, last_seen_at) SELECT scope, universe_id, $1 FROM cur
       ON CONFLICT (scope, universe_id) DO UPDATE SET last_seen_at = EXCLUDED.last_seen_at`,
      [now],
    );
    return entries;
  });
}

/**
 * Clone events for the pairs clone detection stored since `since` (clone_pairs: detected after each
 * collection and by detect-clones), once per pair; the clone is the event's game.
 */
export async function recordCloneEvents(db: Queryable, since: Date): Promise<number> {
  const res = await db.query(
    `INSERT INTO market_events (kind, universe_id, creator_type, creator_id, related_universe_id, occurred_at,
                                detected_at, data)
     SELECT 'clone', g.universe_id, g.creator_type, g.creator_id, p.original_universe_id, p.detected_at,
            p.detected_at, jsonb_build_object('similarity', p.similarity)
       FROM clone_pairs p JOIN games g ON g.universe_id = p.clone_universe_id
      WHERE p.detected_at >= $1
      ORDER BY p.detected_at, p.id
     ON CONFLICT (universe_id, related_universe_id) WHERE kind = 'clone' DO NOTHING`,
    [since],
  );
  return res.rowCount ?? 0;
}

export async function pruneEvents(db: Queryable, before: Date): Promise<void> {
  await db.query('DELETE FROM market_events WHERE detected_at < $1', [before]);
}

export interface FeedRow {
  id: number;
  kind: 'launch' | 'update' | 'ccu_record' | 'top100_entry' | 'genre_top10_entry' | 'clone';
  occurred_at: Date;
  detected_at: Date;
  data: Record<string, unknown>;
  universe_id: number;
  place_id: number;
  name: string;
  genre: string;
  creator_type: 'User' | 'Group';
  creator_id: number | null;
  creator_name: string;
  related_place_id: number | null;
  related_name: string | null;
  follows_game: boolean;
  follows_creator: boolean;
  tracked_clone: boolean;
}

/**
 * A page of the user's feed, newest first, before event `beforeId`: events of games the user
 * follows, of creators the user follows, and clones of games the user tracks. Each source is read
 * through its own index and the three merged, so a page never scans the whole market's events.
 */
export async function feedPage(
  db: Queryable,
  userId: number,
  beforeId: number | null,
  limit: number,
): Promise<FeedRow[]> {
  const res = await db.query<FeedRow>(
    `WITH picked AS (
       (SELECT e.id FROM market_events e JOIN intelligence_follows f
           ON f.user_id = $1 AND f.kind = 'game' AND e.universe_id = f.target_id
         WHERE ($2::bigint IS NULL OR e.id < $2) ORDER BY e.id DESC LIMIT $3)
       UNION
       (SELECT e.id FROM market_events e JOIN intelligence_follows f
           ON f.user_id = $1 AND f.kind IN ('user', 'group') AND e.creator_type = initcap(f.kind)
          AND e.creator_id = f.target_id
         WHERE ($2::bigint IS NULL OR e.id < $2) ORDER BY e.id DESC LIMIT $3)
       UNION
       (SELECT e.id FROM market_events e JOIN (SELECT DISTINCT universe_id FROM tracked_games WHERE user_id = $1) t
           ON e.related_universe_id = t.universe_id
         WHERE e.kind = 'clone' AND ($2::bigint IS NULL OR e.id < $2) ORDER BY e.id DESC LIMIT $3)
     )
     SELECT e.id::float8 AS id, e.kind, e.occurred_at, e.detected_at, e.data, e.universe_id::float8 AS universe_id,
            g.place_id::float8 AS place_id, g.name, g.genre, e.creator_type, e.creator_id::float8 AS creator_id,
            g.creator_name, r.place_id::float8 AS related_place_id, r.name AS related_name,
            EXISTS (SELECT 1 FROM intelligence_follows f WHERE f.user_id = $1 AND f.kind = 'game'
                      AND f.target_id = e.universe_id) AS follows_game,
            EXISTS (SELECT 1 FROM intelligence_follows f WHERE f.user_id = $1 AND f.kind IN ('user', 'group')
                      AND initcap(f.kind) = e.creator_type AND f.target_id = e.creator_id) AS follows_creator,
            (e.kind = 'clone' AND EXISTS (SELECT 1 FROM tracked_games t WHERE t.user_id = $1
                      AND t.universe_id = e.related_universe_id)) AS tracked_clone
       FROM picked JOIN market_events e USING (id) JOIN games g ON g.universe_id = e.universe_id
       LEFT JOIN games r ON r.universe_id = e.related_universe_id
      ORDER BY e.id DESC LIMIT $3`,
    [userId, beforeId, limit],
  );
  return res.rows;
}
