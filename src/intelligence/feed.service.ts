/**
 * Follows and the feed. The collector's hook produces market events as it sees changes
 * (`produce` after each collection and clone detection, `recordUpdates` as updates are stored); a
 * user's feed only selects the events of what the user follows.
 */
import type { Clock } from '../clock.js';
import type { Db, Queryable } from '../db/index.js';
import { errors } from '../errors.js';
import { decodeCursor, pageOf } from '../http/pages.js';
import { findGameByPlaceId } from '../market/index.js';
import type { Entitlements, PlanName } from '../plans.js';
import * as repo from './feed.repo.js';
import type {
  FeedItemT,
  FeedQueryT,
  FeedResponseT,
  FollowBodyT,
  FollowsResponseT,
  FollowT,
} from './feed.schemas.js';

const DAY_MS = 86_400_000;
/** A game created this many days before it is first seen counts as a launch. */
export const LAUNCH_DAYS = 30;
/** A new CCU record: this much above the old one, by ratio and by CCU, on a game this many days old. */
export const RECORD_RATIO = 1.1;
export const RECORD_GAIN = 50;
export const RECORD_MIN_AGE_DAYS = 14;
/** A rank entry is announced only after this long outside the ranks. */
export const RANK_QUIET_HOURS = 24;
/** Clone pairs detected this recently become events (detection runs every 15 minutes at most). */
const CLONE_LOOKBACK_DAYS = 2;
/** Market events are kept this long. */
export const EVENT_RETENTION_DAYS = 180;

export const FEED_METHOD =
  'Items are produced by the collector as it sees changes, and a feed selects those of the games and creators you ' +
  'follow and the clones of games you track. launch: a game created in the last ' +
  `${LAUNCH_DAYS} days appeared in the catalogue (once per game). update: the game’s \`updated\` time moved on ` +
  '(as GET /api/update-impact/{place_id}). ccu_record: a reading at least ' +
  `${Math.round((RECORD_RATIO - 1) * 100)}% and ${RECORD_GAIN} CCU above the game's record so far (its highest daily ` +
  `maximum when first seen), on games at least ${RECORD_MIN_AGE_DAYS} days old. top100_entry / genre_top10_entry: ` +
  `the game entered the market's top 100 or its genre's top 10 by current CCU after ${RANK_QUIET_HOURS} hours ` +
  'outside. clone: clone detection found the game copies another (name or description similarity ≥ 0.8). ' +
  `Items are kept ${EVENT_RETENTION_DAYS} days.`;

export interface FeedDeps {
  db: Db;
  clock: Clock;
  entitlements: Entitlements;
}

const KIND_OF = { user: 'User', group: 'Group' } as const;

function message(r: repo.FeedRow): string {
  const d = r.data as Record<string, number | string | null>;
  switch (r.kind) {
    case 'launch':
      return `${r.creator_name} launched ${r.name} (${r.genre.replace(/_/g, ' ')}).`;
    case 'update':
      return `${r.name} was updated.`;
    case 'ccu_record':
      return `${r.name} set a CCU record: ${Number(d.ccu).toLocaleString('en')} (previous ${Number(d.previous_record).toLocaleString('en')}).`;
    case 'top100_entry':
      return `${r.name} entered the top 100 at #${d.rank}.`;
    case 'genre_top10_entry':
      return `${r.name} entered the ${String(d.genre).replace(/_/g, ' ')} top 10 at #${d.rank}.`;
    case 'clone':
      return `${r.name} by ${r.creator_name} looks like a clone of ${r.related_name ?? 'a game you track'}.`;
  }
}

function toItem(r: repo.FeedRow): FeedItemT {
  const d = r.data as Record<string, number | string | null>;
  const reasons: FeedItemT['reasons'] = [];
  if (r.follows_game) reasons.push('follows_game');
  if (r.follows_creator) reasons.push('follows_creator');
  if (r.tracked_clone) reasons.push('clone_of_tracked_game');
  const num = (k: string) => (typeof d[k] === 'number' ? (d[k] as number) : null);
  return {
    id: r.id,
    kind: r.kind,
    occurred_at: r.occurred_at.toISOString(),
    detected_at: r.detected_at.toISOString(),
    game: {
      place_id: r.place_id,
      universe_id: r.universe_id,
      name: r.name,
      genre: r.genre,
      creator: { id: r.creator_id, type: r.creator_type, name: r.creator_name },
    },
    reasons,
    message: message(r),
    details: {
      ccu: num('ccu'),
      previous_record: num('previous_record'),
      rank: num('rank'),
      similarity: num('similarity'),
      original:
        r.related_place_id === null ? null : { place_id: r.related_place_id, name: r.related_name ?? '' },
    },
  };
}

export class FeedService {
  constructor(private readonly deps: FeedDeps) {}

  /** The collector's hook after each collection: launches, CCU records, rank entries; old events pruned. */
  async produce(now: Date): Promise<{ launches: number; clones: number; records: number; entries: number }> {
    const { db } = this.deps;
    const launches = await repo.recordLaunches(db, now, LAUNCH_DAYS);
    const clones = await repo.recordCloneEvents(db, new Date(now.getTime() - CLONE_LOOKBACK_DAYS * DAY_MS));
    await repo.seedCcuRecords(db, now);
    const records = await repo.recordCcuRecords(db, now, {
      minRatio: RECORD_RATIO,
      minGain: RECORD_GAIN,
      minAgeDays: RECORD_MIN_AGE_DAYS,
    });
    const entries = await repo.recordRankEntries(db, now, RANK_QUIET_HOURS);
    await repo.pruneEvents(db, new Date(now.getTime() - EVENT_RETENTION_DAYS * DAY_MS));
    return { launches, clones, records, entries };
  }

  /** Update events, as the collector stores updates (chained after the updates domain's record). */
  recordUpdates = (db: Queryable, seen: Parameters<typeof repo.recordUpdateEvents>[1]): Promise<void> =>
    repo.recordUpdateEvents(db, seen);

  private followsCap(plan: PlanName): number {
    return this.deps.entitlements.plans[plan].follows;
  }

  /** What a follow body names, checked: the game or creator must be one the service collects. */
  private async target(body: FollowBodyT): Promise<{ kind: repo.FollowKind; id: number }> {
    if (body.kind === 'game') {
      const game = await findGameByPlaceId(this.deps.db, body.place_id);
      if (!game) throw errors.notFound('The service does not collect this game.');
      return { kind: 'game', id: Number(game.universe_id) };
    }
    if (!(await repo.creatorExists(this.deps.db, KIND_OF[body.creator_type], body.creator_id))) {
      throw errors.notFound(`The service collects no game of ${body.creator_type} ${body.creator_id}.`);
    }
    return { kind: body.creator_type, id: body.creator_id };
  }

  /** POST: true when the follow is new (201), false when it existed (200). */
  async follow(
    userId: number,
    plan: PlanName,
    body: FollowBodyT,
  ): Promise<{ created: boolean; follow: FollowT }> {
    const t = await this.target(body);
    const cap = this.followsCap(plan);
    const existing = await repo.follows(this.deps.db, userId);
    const found = existing.find((f) => f.kind === t.kind && f.target_id === t.id);
    if (!found && existing.length >= cap) {
      throw errors.conflict(
        'limit_reached',
        `Your plan follows at most ${cap} games and creators; unfollow one first.`,
      );
    }
    const created = await repo.addFollow(this.deps.db, userId, t.kind, t.id, this.deps.clock.now());
    const row = (await repo.follows(this.deps.db, userId)).find(
      (f) => f.kind === t.kind && f.target_id === t.id,
    )!;
    return { created, follow: toFollow(row) };
  }

  async unfollow(userId: number, body: FollowBodyT): Promise<void> {
    if (body.kind === 'game') {
      const game = await findGameByPlaceId(this.deps.db, body.place_id);
      if (game) await repo.removeFollow(this.deps.db, userId, 'game', Number(game.universe_id));
      return;
    }
    await repo.removeFollow(this.deps.db, userId, body.creator_type, body.creator_id);
  }

  async follows(userId: number, plan: PlanName): Promise<FollowsResponseT> {
    const rows = await repo.follows(this.deps.db, userId);
    return { follows: rows.map(toFollow), limit: this.followsCap(plan) };
  }

  async feed(userId: number, plan: PlanName, q: FeedQueryT): Promise<FeedResponseT> {
    const cap = this.deps.entitlements.plans[plan].intelligenceListMax;
    const limit = Math.min(q.limit, cap);
    const before = decodeCursor(q.cursor, 1)?.[0] ?? null;
    const rows = await repo.feedPage(this.deps.db, userId, before, limit + 1);
    const { page, next_cursor } = pageOf(rows, limit, (r) => [r.id]);
    return { items: page.map(toItem), next_cursor, limit_cap: cap, method: FEED_METHOD };
  }
}

function toFollow(r: repo.FollowRow): FollowT {
  return r.kind === 'game'
    ? {
        kind: 'game',
        place_id: r.place_id ?? 0,
        universe_id: r.target_id,
        name: r.name,
        since: r.created_at.toISOString(),
      }
    : {
        kind: 'creator',
        creator_type: r.kind,
        creator_id: r.target_id,
        name: r.name,
        since: r.created_at.toISOString(),
      };
}
