/**
 * Games: one game's detail, search, and (later) forecast, benchmark, revenue and clones. Reads the
 * catalogue and CCU tiers the market domain collects (through market/index.ts for its rules); owns
 * no collection and writes no table.
 */
import type { FastifyInstance } from 'fastify';
import type { Entitlements } from '../accounts/index.js';
import type { Clock } from '../clock.js';
import type { Db } from '../db/index.js';
import { registerGameRoutes } from './games.routes.js';
import { gameSchemas } from './games.schemas.js';
import { GamesService } from './games.service.js';

export { GamesService, visibleGrowthProbability } from './games.service.js';

export interface GamesDeps {
  db: Db;
  clock: Clock;
  entitlements: Entitlements;
}

export function registerGames(app: FastifyInstance, deps: GamesDeps): void {
  for (const schema of gameSchemas) app.addSchema(schema);
  registerGameRoutes(app, new GamesService(deps));
}
