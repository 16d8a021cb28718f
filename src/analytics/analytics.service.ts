/**
 * The SDK analytics read side: which games a team has, and one view of one game over a range.
 * Access: the signed-in user's team only; another team's game answers 404 as if it did not exist.
 * The plan's history limit clamps the range (range.ts); a segment narrows the players.
 */
import type { Clock } from '../clock.js';
import type { Db } from '../db/index.js';
import { errors } from '../errors.js';
import type { Entitlements, PlanName } from '../plans.js';
import * as repo from './analytics.repo.js';
import type { AnalyticsQueryT, SdkGamesT, ViewHeader } from './analytics.schemas.js';
import { dayOf, resolveRange } from './range.js';
import { Rollups } from './rollups.js';
import type { View, ViewContext } from './views/view.js';

/** Resolves a segment to its players over a range (segments.service.ts); null: no such segment. */
export interface SegmentResolver {
  players(
    teamId: number,
    segmentId: number,
    scope: { gameId: string; platform: string | null; from: string; to: string },
  ): Promise<string[] | null>;
}

export interface AnalyticsDeps {
  db: Db;
  clock: Clock;
  entitlements: Entitlements;
  segments?: SegmentResolver;
}

/** Who asks: the signed-in user's team and plan. */
export interface Reader {
  teamId: number;
  plan: PlanName;
}

export class AnalyticsService {
  readonly rollups: Rollups;
  segments: SegmentResolver | undefined;

  constructor(private readonly deps: AnalyticsDeps) {
    this.rollups = new Rollups(deps);
    this.segments = deps.segments;
  }

  async games(reader: Reader): Promise<SdkGamesT> {
    const since = new Date(this.deps.clock.now().getTime() - 86_400_000);
    const rows = await repo.teamGames(this.deps.db, reader.teamId, since);
    return {
      games: rows.map((r) => ({ ...r, platform: r.platform as SdkGamesT['games'][number]['platform'] })),
    };
  }

  /** The reading frame of a view request: 404 for a game the team has no events for, 422 for a bad
   * range, the plan's clamp, the segment's players. */
  async context(
    reader: Reader,
    gameId: string,
    query: AnalyticsQueryT,
  ): Promise<{ ctx: ViewContext; header: ViewHeader }> {
    const platform = query.platform ?? null;
    if (!(await repo.hasGame(this.deps.db, reader.teamId, gameId, platform))) {
      throw errors.notFound('No SDK events for this game.');
    }
    const now = this.deps.clock.now();
    const history = this.deps.entitlements.plans[reader.plan].sdkHistoryDays;
    const range = resolveRange(query, dayOf(now), history);
    const segment = query.segment ?? null;
    let players: string[] | null = null;
    if (segment !== null) {
      players =
        (await this.segments?.players(reader.teamId, segment, {
          gameId,
          platform,
          from: range.from,
          to: range.to,
        })) ?? null;
      if (players === null) throw errors.notFound('No such segment.');
    }
    const granularity = query.granularity ?? 'day';
    return {
      ctx: { db: this.deps.db, teamId: reader.teamId, gameId, platform, range, granularity, players, now },
      header: {
        game_id: gameId,
        platform: platform as ViewHeader['platform'],
        from: range.from,
        to: range.to,
        granularity,
        segment,
        history_limited_from: range.history_limited_from,
      },
    };
  }

  async view<V extends View>(view: V, reader: Reader, gameId: string, query: AnalyticsQueryT) {
    const { ctx, header } = await this.context(reader, gameId, query);
    return { ...header, ...(await view.load(ctx)) };
  }
}
