/** Clone-pair SQL: which games need their clones looked for, storing what was found, and the lists. */
import type { Db, Queryable } from '../db/index.js';

/** A game whose clones are to be looked for, with the hash of what it is checked on. */
export interface SubjectRow {
  universe_id: number;
  place_id: number;
  name: string;
  description: string;
  genre: string;
  creator_id: number | null;
  creator_type: string;
  creator_name: string;
  created_at: Date | null;
  ccu: number | null;
  text_hash: string;
}

const TEXT_HASH = `md5($1::text || chr(10) || g.genre || chr(10) || g.name || chr(10) || g.description)`;

/** Up to `limit` games never checked, or checked on another genre, name, description or rules version. */
export async function uncheckedGames(db: Queryable, version: number, limit: number): Promise<SubjectRow[]> {
  const res = await db.query<SubjectRow>(
    `SELECT g.universe_id, g.place_id, g.name, g.description, g.genre, g.creator_id, g.creator_type,
            g.creator_name, g.created_at, g.ccu, ${TEXT_HASH} AS text_hash
       FROM games g LEFT JOIN clone_checks k USING (universe_id)
      WHERE k.text_hash IS DISTINCT FROM ${TEXT_HASH}
      ORDER BY g.universe_id LIMIT $2`,
    [String(version), limit],
  );
  return res.rows;
}

/** How many games of each genre wait to be checked. */
export async function uncheckedGenres(
  db: Queryable,
  version: number,
): Promise<{ genre: string; n: number }[]> {
  const res = await db.query<{ genre: string; n: number }>(
    `SELECT g.genre, count(*)::int AS n
       FROM games g LEFT JOIN clone_checks k USING (universe_id)
      WHERE k.text_hash IS DISTINCT FROM ${TEXT_HASH}
      GROUP BY g.genre ORDER BY g.genre`,
    [String(version)],
  );
  return res.rows;
}

/** Every game of a genre, each saying whether it is checked on its current text. */
export async function genreGames(
  db: Queryable,
  version: number,
  genre: string,
): Promise<(SubjectRow & { checked: boolean })[]> {
  const res = await db.query<SubjectRow & { checked: boolean }>(
    `SELECT g.universe_id, g.place_id, g.name, g.description, g.genre, g.creator_id, g.creator_type,
            g.creator_name, g.created_at, g.ccu, ${TEXT_HASH} AS text_hash,
            k.text_hash IS NOT DISTINCT FROM ${TEXT_HASH} AS checked
       FROM games g LEFT JOIN clone_checks k USING (universe_id)
      WHERE g.genre = $2
      ORDER BY g.universe_id`,
    [String(version), genre],
  );
  return res.rows;
}

export interface PairUpsert {
  original: number;
  clone: number;
  genre: string;
  name: number;
  description: number | null;
  similarity: number;
  sameCreator: boolean;
  gapDays: number | null;
}

/**
 * Stores one batch of checks in one transaction: the checked games' pairs become exactly `pairs`
 * (pairs no longer found are deleted; found ones keep their detected_at), and their hashes are
 * recorded. Returns how many pairs were new.
 */
export async function storeChecks(
  db: Db,
  checked: { universeId: number; textHash: string }[],
  pairs: PairUpsert[],
  now: Date,
): Promise<number> {
  const ids = checked.map((c) => c.universeId);
  return db.transaction(async (tx) => {
    await tx.query(
      `DELETE FROM clone_pairs p
        WHERE (p.original_universe_id = ANY($1::bigint[]) OR p.clone_universe_id = ANY($1::bigint[]))
          AND NOT EXISTS (SELECT 1 FROM unnest($2::bigint[], $3::bigint[]) AS f (o, c)
                           WHERE f.o = p.original_universe_id AND f.c = p.clone_universe_id)`,
      [ids, pairs.map((p) => p.original), pairs.map((p) => p.clone)],
    );
    const res = await tx.query<{ inserted: boolean }>(
      `INSERT INTO clone_pairs (original_universe_id, clone_universe_id, genre, name_similarity,
                                description_similarity, similarity, same_creator, creation_gap_days,
                                detected_at, checked_at)
       SELECT o, c, g, n, d, s, sc, gap, $9, $9
         FROM unnest($1::bigint[], $2::bigint[], $3::text[], $4::float8[], $5::float8[], $6::float8[],
                     $7::boolean[], $8::float8[]) AS x (o, c, g, n, d, s, sc, gap)
       ON CONFLICT (original_universe_id, clone_universe_id) DO UPDATE
          SET genre = EXCLUDED.genre, name_similarity = EXCLUDED.name_similarity,
              description_similarity = EXCLUDED.description_similarity, similarity = EXCLUDED.similarity,
              same_creator = EXCLUDED.same_creator, creation_gap_days = EXCLUDED.creation_gap_days,
              checked_at = EXCLUDED.checked_at
       RETURNING (xmax = 0) AS inserted`,
      [
        pairs.map((p) => p.original),
        pairs.map((p) => p.clone),
        pairs.map((p) => p.genre),
        pairs.map((p) => p.name),
        pairs.map((p) => p.description),
        pairs.map((p) => p.similarity),
        pairs.map((p) => p.sameCreator),
        pairs.map((p) => p.gapDays),
        now,
      ],
    );
    await tx.query(
      `INSERT INTO clone_checks (universe_id, text_hash, checked_at)
       SELECT u, h, $3 FROM unnest($1::bigint[], $2::text[]) AS x (u, h)
       ON CONFLICT (universe_id) DO UPDATE SET text_hash = EXCLUDED.text_hash, checked_at = EXCLUDED.checked_at`,
      [ids, checked.map((c) => c.textHash), now],
    );
    return res.rows.filter((r) => r.inserted).length;
  });
}

/** A stored pair with both games as the catalogue has them now. */
export interface PairRow {
  id: number;
  name_similarity: number;
  description_similarity: number | null;
  similarity: number;
  same_creator: boolean;
  creation_gap_days: number | null;
  detected_at: Date;
  o_universe_id: number;
  o_place_id: number;
  o_name: string;
  o_creator: string;
  o_genre: string;
  o_ccu: number | null;
  o_created_at: Date | null;
  c_universe_id: number;
  c_place_id: number;
  c_name: string;
  c_creator: string;
  c_genre: string;
  c_ccu: number | null;
  c_created_at: Date | null;
}

const side = (alias: 'o' | 'c') =>
  ['universe_id', 'place_id', 'name', 'genre', 'ccu', 'created_at']
    .map((col) => `${alias}.${col} AS ${alias}_${col}`)
    .concat(`${alias}.creator_name AS ${alias}_creator`)
    .join(', ');

const PAIRS = `SELECT p.id, p.name_similarity, p.description_similarity, p.similarity, p.same_creator,
                      p.creation_gap_days, p.detected_at, ${side('o')}, ${side('c')}
                 FROM clone_pairs p
                 JOIN games o ON o.universe_id = p.original_universe_id
                 JOIN games c ON c.universe_id = p.clone_universe_id`;

/** The pairs a game is in (as original or clone), most similar first, then oldest pair first. */
export async function pairsOfGame(
  db: Queryable,
  p: { universeId: number; after: { similarity: number; id: number } | undefined; limit: number },
): Promise<PairRow[]> {
  const res = await db.query<PairRow>(
    `${PAIRS}
      WHERE (p.original_universe_id = $1 OR p.clone_universe_id = $1)
        AND ($2::float8 IS NULL OR p.similarity < $2 OR (p.similarity = $2 AND p.id > $3))
      ORDER BY p.similarity DESC, p.id
      LIMIT $4`,
    [p.universeId, p.after?.similarity ?? null, p.after?.id ?? 0, p.limit],
  );
  return res.rows;
}

export async function countPairsOfGame(db: Queryable, universeId: number): Promise<number> {
  const res = await db.query<{ n: number }>(
    `SELECT count(*)::int AS n FROM clone_pairs
      WHERE original_universe_id = $1 OR clone_universe_id = $1`,
    [universeId],
  );
  return res.rows[0]!.n;
}

/** Pairs detected since `since` (optionally of one genre), newest detection first, then highest id. */
export async function recentPairs(
  db: Queryable,
  p: { genre: string | null; since: Date; after: { at: Date; id: number } | undefined; limit: number },
): Promise<PairRow[]> {
  const res = await db.query<PairRow>(
    `${PAIRS}
      WHERE ($1::text IS NULL OR p.genre = $1) AND p.detected_at >= $2
        AND ($3::timestamptz IS NULL OR (p.detected_at, p.id) < ($3::timestamptz, $4::bigint))
      ORDER BY p.detected_at DESC, p.id DESC
      LIMIT $5`,
    [p.genre, p.since, p.after?.at ?? null, p.after?.id ?? 0, p.limit],
  );
  return res.rows;
}

/** Pairs detected after `since` that involve any of `universeIds`, newest first (what the feed announces). */
export async function pairsDetectedAfter(
  db: Queryable,
  since: Date,
  universeIds: readonly number[],
  limit: number,
): Promise<PairRow[]> {
  const res = await db.query<PairRow>(
    `${PAIRS}
      WHERE p.detected_at > $1
        AND (p.original_universe_id = ANY($2::bigint[]) OR p.clone_universe_id = ANY($2::bigint[]))
      ORDER BY p.detected_at DESC, p.id DESC
      LIMIT $3`,
    [since, [...universeIds], limit],
  );
  return res.rows;
}
