/**
 * The alert engine: evaluates every rule against the latest market data (games.ccu, the 24 h trend
 * from the hourly rollups, genre ranks by CCU) and fires each once per crossing. A firing is
 * recorded, shown in the owner's list (new message, unread) and handed to the FiringSink in one
 * transaction. Safe with several workers on one PostgreSQL database: each rule's next state is
 * claimed with a versioned conditional UPDATE, so exactly one worker records a given firing.
 */
import type { FastifyBaseLogger } from 'fastify';
import type { Clock } from '../clock.js';
import type { Db } from '../db/index.js';
import { periodWindow, trendScore } from '../market/index.js';
import { type Entitlements, entitledPlan } from '../plans.js';
import * as repo from './engine.repo.js';
import type { Firing, FiringSink } from './firing.js';
import { firedMessage, firingDetails } from './messages.js';
import { type Decision, decide, type Observation, type Reading } from './rules.js';

export interface AlertEngineDeps {
  db: Db;
  /** Read only when `now` is not given. */
  clock?: Clock;
  sink: FiringSink;
  /** Rules past the owner's plan cap (after a downgrade) stay dormant until the plan allows them. */
  entitlements: Entitlements;
  /** Where a rule that could not be written is reported (the run goes on with the others). */
  log?: Pick<FastifyBaseLogger, 'error'>;
}

export interface EvaluationStats {
  /** Rules within their owners' plan caps, evaluated. */
  evaluated: number;
  /** Rules past their owners' caps, left alone. */
  dormant: number;
  /** Firings this run recorded. */
  fired: number;
  /** Rules whose next state another worker wrote first. */
  lost: number;
  /** Rules whose write failed (rolled back, so the next run tries again). */
  failed: number;
}

/** The market as the rules of one run need it. */
interface MarketSnapshot {
  games: Map<number, Reading>;
  trend: Map<number, number | null>;
  /** Per genre, its games with a reading, busiest first. */
  genres: Map<string, Reading[]>;
}

const NEEDS_GENRE = new Set(['competitor', 'rank_change']);

async function readMarket(db: Db, rules: readonly repo.RuleRow[], now: Date): Promise<MarketSnapshot> {
  const ids = [...new Set(rules.map((r) => r.universe_id))];
  const games = new Map((await repo.readGames(db, ids)).map((g) => [g.universeId, g]));
  const trendIds = [...new Set(rules.filter((r) => r.type === 'trend_change').map((r) => r.universe_id))];
  const trend = new Map<number, number | null>();
  if (trendIds.length > 0) {
    for (const m of await repo.readTrendMeans(db, trendIds, periodWindow('24h', now))) {
      trend.set(m.universe_id, m.recent === null ? null : trendScore(m.recent, m.previous));
    }
  }
  const genreKeys = new Set<string>();
  for (const r of rules) {
    const genre = games.get(r.universe_id)?.genre;
    if (genre !== undefined && NEEDS_GENRE.has(r.type)) genreKeys.add(genre);
  }
  const genres = new Map<string, Reading[]>();
  if (genreKeys.size > 0) {
    for (const g of await repo.readGenres(db, [...genreKeys])) {
      const list = genres.get(g.genre) ?? [];
      list.push(g);
      genres.set(g.genre, list);
    }
  }
  return { games, trend, genres };
}

function observe(rule: repo.RuleRow, market: MarketSnapshot): Observation | undefined {
  const game = market.games.get(rule.universe_id);
  if (!game) return undefined;
  const genre = market.genres.get(game.genre) ?? [];
  const index = genre.findIndex((g) => g.universeId === game.universeId);
  return {
    game,
    trendScore: market.trend.get(game.universeId) ?? null,
    rank: index === -1 ? null : index + 1,
    rivals: genre.filter((g) => g.universeId !== game.universeId),
  };
}

/** Writes one rule's decision; true when it was this worker's to write. */
async function apply(
  deps: AlertEngineDeps,
  rule: repo.RuleRow,
  d: Decision,
  game: Reading,
  now: Date,
): Promise<boolean> {
  return deps.db.transaction(async (tx) => {
    if (!(await repo.claimNextState(tx, rule.id, rule.version, d))) return false;
    if (!d.fire) return true;
    const message = firedMessage(d.fire, game, now);
    const details = firingDetails(d.fire, game);
    const firingId = await repo.insertFiring(tx, rule.id, now, message, details);
    await repo.markFired(tx, rule.id, now, message);
    const firing: Firing = {
      firingId,
      alertId: rule.id,
      userId: rule.user_id,
      teamId: rule.team_id,
      universeId: rule.universe_id,
      type: rule.type,
      message,
      firedAt: now,
      details,
    };
    await deps.sink.enqueue(tx, firing, rule.plan);
    return true;
  });
}

/**
 * One evaluation of every rule at `now` (the lead schedules it every ALERT_INTERVAL_SEC and after
 * each collection). Rules with nothing new write nothing.
 */
export async function evaluateAlerts(deps: AlertEngineDeps, now?: Date): Promise<EvaluationStats> {
  const at = now ?? deps.clock?.now();
  if (!at) throw new Error('evaluateAlerts needs `now` or a clock');
  // A canceled or long past-due subscription leaves its owner Explorer's caps and delivery channels.
  const all = (await repo.readRules(deps.db)).map((r) => ({
    ...r,
    plan: entitledPlan(r.plan, r.subscription_status, r.subscription_status_since, at),
  }));
  const rules = all.filter((r) => r.ordinal <= deps.entitlements.plans[r.plan].alerts);
  const stats: EvaluationStats = {
    evaluated: rules.length,
    dormant: all.length - rules.length,
    fired: 0,
    lost: 0,
    failed: 0,
  };
  if (rules.length === 0) return stats;
  const market = await readMarket(deps.db, rules, at);
  for (const rule of rules) {
    const obs = observe(rule, market);
    if (!obs) continue;
    const d = decide(rule, obs);
    if (!d.changed) continue;
    try {
      if (await apply(deps, rule, d, obs.game, at)) stats.fired += d.fire ? 1 : 0;
      else stats.lost += 1;
    } catch (err) {
      // One rule's failed hand-off must not silence every other rule; its state was rolled back.
      stats.failed += 1;
      deps.log?.error({ err, alertId: rule.id }, 'alert rule could not be written');
    }
  }
  return stats;
}
