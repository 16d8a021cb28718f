/**
 * Game search SQL over the catalogue (market owns the games table; the games domain's search
 * endpoint asks here). The text it matches is normaliseSearch's (search-text.ts).
 */
import type { Db } from '../db/index.js';

export interface SearchRow {
  universe_id: number;
  place_id: number;
  name: string;
  creator_name: string;
  genre: string;
  ccu: number | null;
}

export interface SearchParams {
  /** The query as normaliseSearch made it ('' when nothing searchable was left). */
  text: string;
  /** A numeric query, matched against place_id and universe_id; null otherwise. */
  id: number | null;
  /** word_similarity from which a game counts as a typo-tolerant match. */
  fuzzyThreshold: number;
  limit: number;
  offset: number;
}

/**
 * What a query matches: an id exactly; a substring of the normalised "name creator" text; or, from
 * three characters on, a fuzzy word match (pg_trgm `<%`). Each arm can use an index (place key,
 * primary key, the trigram GIN index), so Postgres answers with a BitmapOr rather than a scan.
 * `text` only ever holds letters, digits and single spaces (normaliseSearch), so it cannot carry
 * LIKE wildcards.
 */
const MATCH = `(place_id = $2::bigint OR universe_id = $2::bigint
   OR ($1::text <> '' AND (search_text LIKE '%' || $1::text || '%'
       OR (char_length($1::text) >= 3 AND $1::text <% search_text))))`;

/**
 * Relevance tiers, best first. Tier 1 (the whole name) rebuilds the creator's part of search_text
 * with an ASCII-only normalisation, since Postgres here has no accent stripping: a creator name with
 * other letters just drops that game to tier 2, it never mismatches.
 */
const TIER = `CASE
    WHEN place_id = $2::bigint OR universe_id = $2::bigint THEN 0
    WHEN search_text = btrim($1::text || ' ' || btrim(regexp_replace(lower(creator_name), '[^a-z0-9]+', ' ', 'g'))) THEN 1
    WHEN search_text LIKE $1::text || '%' THEN 2
    WHEN ' ' || search_text LIKE '% ' || $1::text || '%' THEN 3
    WHEN search_text LIKE '%' || $1::text || '%' THEN 4
    ELSE 5
  END`;

/** One page of matches, best first, and how many there are in all (one snapshot, one threshold). */
export async function searchGames(db: Db, p: SearchParams): Promise<{ rows: SearchRow[]; total: number }> {
  return db.transaction(async (tx) => {
    // `<%` reads its threshold from this setting; SET LOCAL semantics keep it to this transaction.
    await tx.query(`SELECT set_config('pg_trgm.word_similarity_threshold', $1, true)`, [
      String(p.fuzzyThreshold),
    ]);
    const page = await tx.query<SearchRow>(
      `SELECT universe_id, place_id, name, creator_name, genre, ccu
         FROM games
        WHERE ${MATCH}
        ORDER BY ${TIER}, word_similarity($1::text, search_text) DESC, COALESCE(ccu, 0) DESC, universe_id
        LIMIT $3 OFFSET $4`,
      [p.text, p.id, p.limit, p.offset],
    );
    const count = await tx.query<{ n: number }>(`SELECT count(*)::int AS n FROM games WHERE ${MATCH}`, [
      p.text,
      p.id,
    ]);
    return { rows: page.rows, total: count.rows[0]?.n ?? 0 };
  });
}
