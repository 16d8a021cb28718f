/** A creator's page: its games, their total and per-game CCU history, launches and updates. */
import type { Clock } from '../clock.js';
import type { Db } from '../db/index.js';
import { errors } from '../errors.js';
import { dayKey, dayMs } from '../games/index.js';
import { decodeCursor, pageOf } from '../http/pages.js';
import type { Entitlements, PlanName } from '../plans.js';
import type { UpdateImpactService } from '../updates/index.js';
import * as repo from './creators.repo.js';
import type { CreatorQueryT, CreatorResponseT } from './creators.schemas.js';

const DAY_MS = 86_400_000;
const CHARTED_GAMES = 10;
const UPDATES = 50;

export interface CreatorsDeps {
  db: Db;
  clock: Clock;
  entitlements: Entitlements;
  updates: Pick<UpdateImpactService, 'newestOf'>;
}

export class CreatorService {
  constructor(private readonly deps: CreatorsDeps) {}

  async creator(id: number, q: CreatorQueryT, plan: PlanName): Promise<CreatorResponseT> {
    const type = q.type === 'group' ? 'Group' : 'User';
    const games = await repo.creatorGames(this.deps.db, type, id);
    if (games.length === 0) {
      throw errors.notFound(`The service collects no game of ${q.type} ${id}.`);
    }
    const cap = this.deps.entitlements.plans[plan].intelligenceListMax;
    const limit = Math.min(q.limit, cap);
    const today = dayKey(this.deps.clock.now().getTime());
    const since = dayKey(dayMs(today) - q.days * DAY_MS);
    const sinceMs = dayMs(since);
    const ids = games.map((g) => g.universe_id);
    const [daily, updates] = await Promise.all([
      repo.gamesDailyCcu(this.deps.db, ids, since, today),
      this.deps.updates.newestOf(ids, UPDATES),
    ]);
    const totalCcu = games.reduce((s, g) => s + (g.ccu ?? 0), 0);
    const byId = new Map(games.map((g) => [g.universe_id, g]));
    // Keyset over the busiest-first order: (ccu, or −1 without a reading; universe id).
    const after = decodeCursor(q.cursor, 2);
    const rest = after
      ? games.filter((g) => {
          const c = g.ccu ?? -1;
          return c < after[0]! || (c === after[0]! && g.universe_id > after[1]!);
        })
      : games;
    const { page, next_cursor } = pageOf(rest.slice(0, limit + 1), limit, (g) => [
      g.ccu ?? -1,
      g.universe_id,
    ]);
    const totals = new Map<string, { ccu: number; games: number }>();
    for (const d of daily) {
      const t = totals.get(d.day) ?? { ccu: 0, games: 0 };
      t.ccu += d.ccu;
      t.games += 1;
      totals.set(d.day, t);
    }
    const charted = games.slice(0, CHARTED_GAMES);
    return {
      creator: { id, type, name: games[0]!.creator_name },
      since,
      games_total: games.length,
      total_ccu: totalCcu,
      total_visits: games.reduce((s, g) => s + (g.visits ?? 0), 0),
      games: page.map((g) => ({
        place_id: g.place_id,
        universe_id: g.universe_id,
        name: g.name,
        genre: g.genre,
        ccu: g.ccu,
        visits: g.visits,
        share_of_ccu: totalCcu > 0 ? Math.round(((g.ccu ?? 0) / totalCcu) * 10_000) / 10_000 : 0,
        created_at: g.created_at?.toISOString() ?? null,
        updated_at: g.updated_at?.toISOString() ?? null,
      })),
      next_cursor,
      limit_cap: cap,
      history: [...totals].map(([day, t]) => ({ day, ccu: Math.round(t.ccu * 100) / 100, games: t.games })),
      game_history: charted.map((g) => ({
        universe_id: g.universe_id,
        name: g.name,
        days: daily
          .filter((d) => d.universe_id === g.universe_id)
          .map((d) => ({ day: d.day, ccu: Math.round(d.ccu * 100) / 100 })),
      })),
      launches: games
        .filter((g) => g.created_at && g.created_at.getTime() >= sinceMs)
        .sort((a, b) => b.created_at!.getTime() - a.created_at!.getTime())
        .map((g) => ({
          place_id: g.place_id,
          name: g.name,
          genre: g.genre,
          created_at: g.created_at!.toISOString(),
          ccu: g.ccu,
        })),
      updates: updates
        .filter((u) => Date.parse(u.released_at) >= sinceMs)
        .map(({ universe_id, ...update }) => ({
          place_id: byId.get(universe_id)!.place_id,
          name: byId.get(universe_id)!.name,
          update,
        })),
      method:
        'Games: every game the service collects whose creator is this user or group (the catalogue, refreshed by each ' +
        'collection). History: per UTC day, the sum of the games’ daily mean CCU and how many had readings. ' +
        'Launches: games whose platform creation date falls in the window. Updates: as GET /api/update-impact/{place_id}.',
    };
  }
}
