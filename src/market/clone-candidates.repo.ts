/**
 * Clone-detection SQL: candidate look-alikes of one game within its genre. Candidates are a loose
 * superset; the games domain's clones.ts scores them exactly. Here because market owns the games
 * table. Nothing here writes.
 */
import type { Db } from '../db/index.js';

export interface CandidateRow {
  universe_id: number;
  place_id: number;
  name: string;
  creator_name: string;
  creator_id: number | null;
  creator_type: string;
  description: string;
  created_at: Date | null;
  ccu: number | null;
}

/**
 * Word similarity from which a name is a candidate. A name similarity ≥ 0.8 implies a word
 * similarity ≥ 0.8 (see nameCandidates; on 20,000 simulated games the lowest over 13,962 clone pairs
 * was exactly 0.8), so 0.7 leaves a margin while keeping out the many "<other word> Simulator"
 * names that share one word (≈ 0.6), whose scoring made detail 2–3 times slower.
 */
export const NAME_CANDIDATE_THRESHOLD = 0.7;
/** Raw pg_trgm similarity from which a long description is a candidate. */
export const DESCRIPTION_CANDIDATE_THRESHOLD = 0.5;
/** A bound on the rows one detail request scores, however generic a name is. */
const MAX_CANDIDATES = 1000;

const COLUMNS =
  'universe_id, place_id, name, creator_name, creator_id, creator_type, description, created_at, ccu';

/**
 * Games of `genre` whose search text (normalised "name creator") contains the key's words or close
 * variants: `key <% search_text`, answered by the trigram index behind search. A clone's key words
 * all appear in its own search text, so a name similarity ≥ 0.8 implies a word similarity at least
 * as high: the candidate threshold loses none of them.
 */
export async function nameCandidates(
  db: Db,
  p: { genre: string; universeId: number; key: string },
): Promise<CandidateRow[]> {
  return db.transaction(async (tx) => {
    // `<%` reads its threshold from this setting; SET LOCAL semantics keep it to this transaction.
    await tx.query(`SELECT set_config('pg_trgm.word_similarity_threshold', $1, true)`, [
      String(NAME_CANDIDATE_THRESHOLD),
    ]);
    const res = await tx.query<CandidateRow>(
      `SELECT ${COLUMNS} FROM games
        WHERE genre = $1 AND universe_id <> $2 AND $3::text <% search_text
        ORDER BY word_similarity($3::text, search_text) DESC, ccu DESC NULLS LAST, universe_id
        LIMIT ${MAX_CANDIDATES}`,
      [p.genre, p.universeId, p.key],
    );
    return res.rows;
  });
}

/**
 * Games of `genre` whose description is about as long as `description` (a near-copy cannot be twice
 * as long or half as long) and shares most of its trigrams. No index: it scans the genre, so the
 * service asks only for descriptions long enough to be compared.
 */
export async function descriptionCandidates(
  db: Db,
  p: { genre: string; universeId: number; description: string },
): Promise<CandidateRow[]> {
  const length = p.description.length;
  const res = await db.query<CandidateRow>(
    `SELECT ${COLUMNS} FROM games
      WHERE genre = $1 AND universe_id <> $2 AND length(description) BETWEEN $3 AND $4
        AND similarity(description, $5) >= $6
      ORDER BY ccu DESC NULLS LAST, universe_id
      LIMIT ${MAX_CANDIDATES}`,
    [
      p.genre,
      p.universeId,
      Math.floor(length / 2),
      length * 2,
      p.description,
      DESCRIPTION_CANDIDATE_THRESHOLD,
    ],
  );
  return res.rows;
}
