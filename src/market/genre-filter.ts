/** The `genre` query filter the market-wide lists share, and its check. */
import { Type } from 'typebox';
import type { Queryable } from '../db/index.js';
import { errors } from '../errors.js';
import { GENRE_KEYS } from '../platform/genres.js';
import { genreExists } from './market.repo.js';

export const GenreFilter = Type.Optional(
  Type.String({
    minLength: 1,
    maxLength: 64,
    description: 'Only games of this genre key; an unknown key is refused (422).',
  }),
);

/**
 * Refuses (422 on query.genre) a genre that is neither a key of the taxonomy nor the genre of a
 * game the service collects (a platform source may name genres outside the taxonomy).
 */
export async function assertKnownGenre(db: Queryable, genre: string | undefined): Promise<void> {
  if (genre === undefined || GENRE_KEYS.includes(genre)) return;
  if (!(await genreExists(db, genre))) {
    throw errors.validation('query.genre', `Unknown genre "${genre}": use a genre key such as "simulation".`);
  }
}
