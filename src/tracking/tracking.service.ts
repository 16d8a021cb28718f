/**
 * Tracking rules: a user tracks up to their plan's number of games (409 limit_reached past it);
 * tracking twice answers the same; a universe the catalogue lacks is fetched from the platform and
 * stored (404 when the platform does not know it either). Untracking is idempotent.
 */

import type { Clock } from '../clock.js';
import type { Db } from '../db/index.js';
import { errors } from '../errors.js';
import { catalogueUpsert, upsertGames } from '../market/index.js';
import type { Entitlements, PlanName } from '../plans.js';
import type { GameVotes, PlatformGame, PlatformSource } from '../platform/index.js';
import * as repo from './tracking.repo.js';
import type { TrackedListT, TrackResultT, UntrackResultT } from './tracking.schemas.js';

export interface TrackingServiceDeps {
  db: Db;
  clock: Clock;
  entitlements: Entitlements;
  platform?: PlatformSource;
}

export interface Caller {
  userId: number;
  teamId: number;
  plan: PlanName;
}

export class TrackingService {
  constructor(private readonly deps: TrackingServiceDeps) {}

  async track(caller: Caller, universeId: number): Promise<TrackResultT> {
    const limit = this.deps.entitlements.plans[caller.plan].trackedGames;
    await this.ensureInCatalogue(universeId);
    const count = await this.deps.db.transaction(async (tx) => {
      await repo.lockTeam(tx, caller.teamId);
      if (await repo.isTracked(tx, caller.teamId, universeId)) return repo.countTracked(tx, caller.teamId);
      const n = await repo.countTracked(tx, caller.teamId);
      if (n >= limit) {
        throw errors.conflict(
          'limit_reached',
          `Your ${caller.plan} plan tracks up to ${limit} games; untrack one or upgrade to track more.`,
        );
      }
      await repo.insertTracked(tx, caller, universeId, this.deps.clock.now());
      return n + 1;
    });
    return { status: 'tracked', universe_id: universeId, tracked_count: count, limit };
  }

  /** The team's tracked games (oldest first) and the caps of the plan that applies there. */
  async list(caller: Caller): Promise<TrackedListT> {
    const ids = await repo.listTracked(this.deps.db, caller.teamId);
    const e = this.deps.entitlements.plans[caller.plan];
    return {
      tracked_games: ids,
      tracked_count: ids.length,
      plan: caller.plan,
      limit: e.trackedGames,
      alerts_limit: e.alerts,
    };
  }

  async untrack(caller: Caller, universeId: number): Promise<UntrackResultT> {
    await repo.deleteTracked(this.deps.db, caller.teamId, universeId);
    return { status: 'untracked', universe_id: universeId };
  }

  /** Stores a universe the catalogue lacks, read from the platform; 404 when nobody knows it. */
  async ensureInCatalogue(universeId: number): Promise<void> {
    const { db, platform } = this.deps;
    if (await repo.gameExists(db, universeId)) return;
    const missing = errors.notFound(`No game with universe id ${universeId} is known.`);
    if (!platform) throw missing;
    const now = this.deps.clock.now();
    let game: PlatformGame | undefined;
    let votes: GameVotes | undefined;
    try {
      game = (await platform.getGames([universeId], now)).items.get(universeId);
      if (game) votes = (await platform.getVotes([universeId], now)).items.get(universeId);
    } catch (err) {
      throw errors.unavailable(
        'The platform could not be reached to look this game up; try again shortly.',
        5,
        err,
      );
    }
    if (!game) throw missing;
    await upsertGames(db, [catalogueUpsert(game, votes)], now);
  }
}
