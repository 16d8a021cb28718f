/**
 * Hand-built catalogue rows for route tests: every number is chosen by the test, so expected values
 * are exact. Writes through the market repo, as the collector does.
 */
import type { Db } from '../../src/db/index.js';
import { normaliseSearch } from '../../src/market/index.js';
import { type GameUpsert, insertRollups, upsertGames } from '../../src/market/market.repo.js';

export type GameSeed = Pick<GameUpsert, 'universeId' | 'placeId' | 'name' | 'creatorName'> &
  Partial<Omit<GameUpsert, 'searchText'>>;

/** A full catalogue row from the fields a test cares about; search_text as the collector writes it. */
export function gameRow(seed: GameSeed): GameUpsert {
  return {
    description: '',
    creatorId: 1,
    creatorType: 'User',
    genre: 'simulation',
    maxPlayers: 20,
    createdAt: new Date('2025-01-01T00:00:00Z'),
    updatedAt: new Date('2026-11-01T00:00:00Z'),
    ccu: 0,
    visits: 0,
    favorites: 0,
    upVotes: null,
    downVotes: null,
    ...seed,
    searchText: normaliseSearch(`${seed.name} ${seed.creatorName}`),
  };
}

export async function seedGames(db: Db, seeds: GameSeed[], observedAt: Date): Promise<void> {
  await upsertGames(db, seeds.map(gameRow), observedAt);
}

/** Hourly rollups of one game: `values[i]` is the mean CCU of the hour `from + i` hours. */
export async function seedHourly(db: Db, universeId: number, from: Date, values: number[]): Promise<void> {
  await insertRollups(
    db,
    'hourly',
    values.map((v, i) => ({
      universeId,
      at: new Date(from.getTime() + i * 3_600_000),
      ccuAvg: v,
      ccuMax: Math.ceil(v),
      samples: 12,
      visits: 0,
    })),
  );
}

/** Makes a catalogue row look as if the platform never answered for it (no reading yet). */
export async function forgetReadings(db: Db, universeId: number): Promise<void> {
  await db.query(
    `UPDATE games SET ccu = NULL, visits = NULL, favorites = NULL, up_votes = NULL, down_votes = NULL,
            max_players = NULL, created_at = NULL, updated_at = NULL, observed_at = NULL
      WHERE universe_id = $1`,
    [universeId],
  );
}
