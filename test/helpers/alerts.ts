/**
 * Alert engine test helpers: owners inserted straight into the tables (no password hashing, so
 * engine tests stay fast), a FiringSink that records what it was given, and CCU set by hand
 * between evaluations.
 */

import type { Db, Queryable } from '../../src/db/index.js';
import type { PlanName } from '../../src/plans.js';
import type { Firing, FiringSink } from '../../src/tracking/index.js';

export interface Owner {
  userId: number;
  teamId: number;
  plan: PlanName;
}

let counter = 0;

export async function insertOwner(db: Db, plan: PlanName = 'Explorer'): Promise<Owner> {
  counter += 1;
  const email = `owner${counter}-${process.pid}@example.com`;
  const team = await db.query<{ id: number }>('INSERT INTO teams (name) VALUES ($1) RETURNING id', [email]);
  const teamId = team.rows[0]!.id;
  const user = await db.query<{ id: number }>(
    `INSERT INTO users (email, password_hash, plan, subscription_status, team_id, email_verified_at)
     VALUES ($1, 'x', $2, $3, $4, now()) RETURNING id`,
    [email, plan, plan === 'Explorer' ? 'none' : 'active', teamId],
  );
  await db.query(
    `INSERT INTO team_members (team_id, user_id, role, joined_at) VALUES ($1, $2, 'owner', now())`,
    [teamId, user.rows[0]!.id],
  );
  return { userId: user.rows[0]!.id, teamId, plan };
}

export interface RecordingSink extends FiringSink {
  calls: { firing: Firing; plan: PlanName }[];
  /** Makes the next enqueue throw (a delivery table that could not be written). */
  failNext(): void;
}

export function recordingSink(): RecordingSink {
  let fail = false;
  const sink: RecordingSink = {
    calls: [],
    failNext() {
      fail = true;
    },
    async enqueue(_tx: Queryable, firing: Firing, plan: PlanName) {
      if (fail) {
        fail = false;
        throw new Error('delivery queue unavailable');
      }
      sink.calls.push({ firing, plan });
    },
  };
  return sink;
}

/** A new latest reading for a game (what the collector's upsert would leave in games.ccu). */
export async function setCcu(db: Db, universeId: number, ccu: number | null): Promise<void> {
  await db.query('UPDATE games SET ccu = $2 WHERE universe_id = $1', [universeId, ccu]);
}
