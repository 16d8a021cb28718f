/** Alert engine SQL: the rules with their owners, the readings they need, and claiming a rule's next state. */

import type { Queryable } from '../db/index.js';
import { gamesByGenresBusiestFirst, gamesByUniverseIds } from '../market/index.js';
import type { PlanName, SubscriptionStatus } from '../plans.js';
import type { AlertType, Reading, RuleState } from './rules.js';

export interface RuleRow {
  id: number;
  user_id: number;
  team_id: number;
  universe_id: number;
  type: AlertType;
  threshold: number;
  armed: boolean;
  state: RuleState | null;
  version: number;
  /** The team owner's stored plan; entitlements follow it only while the subscription allows (entitledPlan). */
  plan: PlanName;
  subscription_status: SubscriptionStatus;
  subscription_status_since: Date;
  /** 1 for the team's oldest rule, 2 for the next … (rules past the plan's cap stay dormant). */
  ordinal: number;
}

export async function readRules(db: Queryable): Promise<RuleRow[]> {
  const res = await db.query<RuleRow>(
    `SELECT a.id, a.user_id, a.team_id, a.universe_id, a.type, a.threshold, a.armed, a.state, a.version, u.plan,
            u.subscription_status, u.subscription_status_since,
            (row_number() OVER (PARTITION BY a.team_id ORDER BY a.id))::int AS ordinal
       FROM alerts a
       JOIN team_members o ON o.team_id = a.team_id AND o.role = 'owner'
       JOIN users u ON u.id = o.user_id
      ORDER BY a.id`,
  );
  return res.rows;
}

const toReading = (r: { universe_id: number; name: string; genre: string; ccu: number | null }): Reading => ({
  universeId: r.universe_id,
  name: r.name,
  genre: r.genre,
  ccu: r.ccu,
});

/** The rules' games as readings (market's catalogue). */
export async function readGames(db: Queryable, universeIds: readonly number[]): Promise<Reading[]> {
  return (await gamesByUniverseIds(db, universeIds)).map(toReading);
}

/** Every game of these genres that has a reading, busiest first (ties by universe id, as everywhere). */
export async function readGenres(db: Queryable, genres: readonly string[]): Promise<Reading[]> {
  return (await gamesByGenresBusiestFirst(db, genres)).map(toReading);
}

export interface TrendMeansRow {
  universe_id: number;
  recent: number | null;
  previous: number | null;
}

/** Mean hourly CCU over [recentStart, end) and [previousStart, recentStart), per universe. */
export async function readTrendMeans(
  db: Queryable,
  universeIds: readonly number[],
  w: { previousStart: Date; recentStart: Date; end: Date },
): Promise<TrendMeansRow[]> {
  const res = await db.query<TrendMeansRow>(
    `SELECT universe_id, avg(ccu_avg::float8) FILTER (WHERE hour >= $2) AS recent,
            avg(ccu_avg::float8) FILTER (WHERE hour < $2) AS previous
       FROM ccu_hourly
      WHERE universe_id = ANY($1::bigint[]) AND hour >= $3 AND hour < $4
      GROUP BY universe_id`,
    [universeIds, w.recentStart, w.previousStart, w.end],
  );
  return res.rows;
}

/**
 * Writes a rule's next state only if nobody wrote it since `version` was read: the claim that lets
 * several workers evaluate at once while each firing is recorded once (the loser matches no row;
 * on PostgreSQL it waits for the winner's row lock, then re-checks the version and finds it moved).
 */
export async function claimNextState(
  tx: Queryable,
  id: number,
  version: number,
  next: { armed: boolean; state: RuleState | null },
): Promise<boolean> {
  const res = await tx.query(
    `UPDATE alerts SET armed = $3, state = $4::jsonb, version = version + 1
      WHERE id = $1 AND version = $2`,
    [id, version, next.armed, next.state === null ? null : JSON.stringify(next.state)],
  );
  return res.rowCount === 1;
}

export async function insertFiring(
  tx: Queryable,
  alertId: number,
  firedAt: Date,
  message: string,
  details: Record<string, unknown>,
): Promise<number> {
  const res = await tx.query<{ id: number }>(
    `INSERT INTO alert_firings (alert_id, fired_at, message, details) VALUES ($1, $2, $3, $4::jsonb) RETURNING id`,
    [alertId, firedAt, message, JSON.stringify(details)],
  );
  return res.rows[0]!.id;
}

/** What the in-app list shows after a firing: the new message, unread. */
export async function markFired(
  tx: Queryable,
  alertId: number,
  firedAt: Date,
  message: string,
): Promise<void> {
  await tx.query('UPDATE alerts SET message = $2, viewed = false, last_fired_at = $3 WHERE id = $1', [
    alertId,
    message,
    firedAt,
  ]);
}
