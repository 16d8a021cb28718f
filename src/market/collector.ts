/**
 * The collector: reads the platform every 5 minutes and stores what it got (the catalogue, a raw
 * CCU sample per game, the hourly and daily rollups, game passes, a genre snapshot every 6 hours),
 * then recomputes the market views. A game the platform could not read this time gets no sample:
 * a gap, never a zero. `backfill` writes past history for a source that can replay it.
 */
import type { FastifyBaseLogger } from 'fastify';
import type { Db, Queryable } from '../db/index.js';
import type { PlatformGame, PlatformSource } from '../platform/index.js';
import * as repo from './market.repo.js';
import { normaliseSearch } from './search-text.js';

const HOUR_MS = 3_600_000;
const DAY_MS = 24 * HOUR_MS;
const SNAPSHOT_MS = 6 * HOUR_MS;
const PASSES_PER_RUN = 500;

export interface CollectorDeps {
  db: Db;
  platform: PlatformSource;
  log: Pick<FastifyBaseLogger, 'info' | 'warn'>;
  /** Recomputes the stored market views after data changed (market views module). */
  refreshViews?: (now: Date) => Promise<void>;
  /** Stores the updates seen (a game's `updated` time moved on), in the collection's transaction. */
  recordUpdates?: (db: Queryable, seen: SeenUpdate[]) => Promise<void>;
}

/** A game's `updated` time moved on between two readings. */
export interface SeenUpdate {
  universeId: number;
  releasedAt: Date;
  previousAt: Date | null;
  detectedAt: Date;
}

export interface CollectStats {
  requested: number;
  stored: number;
  failed: number;
  passesRefreshed: number;
  genreSnapshot: boolean;
}

export const hourStart = (t: Date) => new Date(Math.floor(t.getTime() / HOUR_MS) * HOUR_MS);
export const dayKey = (t: Date) => t.toISOString().slice(0, 10);

/** A platform reading as a catalogue row (the collector's and tracking's one mapping). */
export function catalogueUpsert(
  g: PlatformGame,
  votes: { upVotes: number; downVotes: number } | undefined,
): repo.GameUpsert {
  return {
    universeId: g.universeId,
    placeId: g.rootPlaceId,
    name: g.name,
    description: g.description,
    creatorId: g.creator.id,
    creatorName: g.creator.name,
    creatorType: g.creator.type,
    genre: g.genre,
    maxPlayers: g.maxPlayers,
    createdAt: g.created,
    updatedAt: g.updated,
    ccu: g.playing,
    visits: g.visits,
    favorites: g.favorites,
    upVotes: votes?.upVotes ?? null,
    downVotes: votes?.downVotes ?? null,
    searchText: normaliseSearch(`${g.name} ${g.creator.name}`),
  };
}

/** `earlier`: updates seen before this collection (the backfill's), stored with its own. */
export async function collectOnce(
  deps: CollectorDeps,
  now: Date,
  earlier: readonly SeenUpdate[] = [],
): Promise<CollectStats> {
  const { db, platform } = deps;
  const discovered = await platform.discover(now);
  const ids = [...new Set([...discovered, ...(await repo.knownUniverseIds(db))])];
  const games = await platform.getGames(ids, now);
  const votes = await platform.getVotes([...games.items.keys()], now);
  const readings = [...games.items.values()];
  const upserts = readings.map((g) => catalogueUpsert(g, votes.items.get(g.universeId)));
  await db.transaction(async (tx) => {
    // Read before the upsert replaces the stored `updated` times.
    const moved = deps.recordUpdates ? await repo.movedUpdateTimes(tx, upserts) : [];
    await repo.upsertGames(tx, upserts, now);
    const seen = [...earlier, ...moved.map((m) => ({ ...m, detectedAt: now }))];
    if (seen.length > 0) await deps.recordUpdates?.(tx, seen);
    await repo.insertSamples(
      tx,
      readings.map((g) => ({ universeId: g.universeId, ts: now, ccu: g.playing, visits: g.visits })),
    );
    await repo.rollUpHour(tx, hourStart(now));
    await repo.rollUpDay(tx, dayKey(now));
  });
  let passesRefreshed = 0;
  for (const id of await repo.gamesNeedingPasses(db, new Date(now.getTime() - DAY_MS), PASSES_PER_RUN)) {
    const passes = await platform.getGamePasses(id, now);
    if (passes === undefined) continue; // a gap: keep what we had
    await repo.replacePasses(db, id, passes, now);
    passesRefreshed += 1;
  }
  const bucket = new Date(Math.floor(now.getTime() / SNAPSHOT_MS) * SNAPSHOT_MS);
  const genreSnapshot = !(await repo.hasGenreSnapshot(db, bucket));
  if (genreSnapshot) await repo.insertGenreSnapshot(db, bucket);
  await repo.applyRetention(db, now);
  await deps.refreshViews?.(now);
  const stats = {
    requested: ids.length,
    stored: readings.length,
    failed: games.failed.length,
    passesRefreshed,
    genreSnapshot,
  };
  deps.log.info({ ...stats }, 'market collected');
  return stats;
}
