/**
 * Intelligence: what the market's games have in common and who makes them: a creator's page, the
 * follows and feed a user reads, success patterns and clone lists. Reads the catalogue, the
 * rollups and other domains' answers through their index.ts; owns only its own tables.
 */
import type { FastifyInstance } from 'fastify';
import type { Clock } from '../clock.js';
import type { Db } from '../db/index.js';
import type { Entitlements } from '../plans.js';
import type { UpdateImpactService } from '../updates/index.js';
import { registerCreatorRoutes } from './creators.routes.js';
import { CreatorService } from './creators.service.js';
import { registerSuccessPatternRoutes } from './success-patterns.routes.js';
import { SuccessPatternService } from './success-patterns.service.js';

export interface IntelligenceDeps {
  db: Db;
  clock: Clock;
  entitlements: Entitlements;
  updates: UpdateImpactService;
}

export interface Intelligence {
  creators: CreatorService;
  patterns: SuccessPatternService;
}

export function createIntelligence(deps: IntelligenceDeps): Intelligence {
  return { creators: new CreatorService(deps), patterns: new SuccessPatternService(deps) };
}

export function registerIntelligence(app: FastifyInstance, intelligence: Intelligence): void {
  registerCreatorRoutes(app, intelligence.creators);
  registerSuccessPatternRoutes(app, intelligence.patterns);
}
