/**
 * Games: one game's detail, search, and (later) forecast, benchmark, revenue and clones. Reads the
 * catalogue and CCU tiers the market domain collects (through market/index.ts); owns no collection.
 */
import type { FastifyInstance } from 'fastify';
import type { Entitlements } from '../accounts/index.js';
import type { Clock } from '../clock.js';
import type { Db } from '../db/index.js';

export interface GamesDeps {
  db: Db;
  clock: Clock;
  entitlements: Entitlements;
}

export function registerGames(_app: FastifyInstance, _deps: GamesDeps): void {
  // Routes land in games.routes.ts.
}
