/**
 * Intelligence: what the market's games have in common and who makes them: a creator's page, the
 * follows and feed a user reads, success patterns and clone lists. Reads the catalogue, the
 * rollups and other domains' answers through their index.ts; owns only its own tables.
 */
import type { FastifyInstance } from 'fastify';
import type { Clock } from '../clock.js';
import type { Db } from '../db/index.js';
import type { Job } from '../jobs/scheduler.js';
import type { Entitlements } from '../plans.js';
import type { UpdateImpactService } from '../updates/index.js';
import { registerCloneRoutes } from './clones.routes.js';
import { ClonePairService } from './clones.service.js';
import { registerCreatorRoutes } from './creators.routes.js';
import { CreatorService } from './creators.service.js';
import { registerFeedRoutes } from './feed.routes.js';
import { feedSchemas } from './feed.schemas.js';
import { FeedService } from './feed.service.js';

export type { ClonePairT } from './clones.schemas.js';
export { ClonePairService } from './clones.service.js';
export { FeedService } from './feed.service.js';

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
  /** Follows, the feed, and the market events the collector's hooks produce for it. */
  feed: FeedService;
  /** Clone pairs: detected after each collection and by detect-clones; newPairs() serves the feed. */
  clones: ClonePairService;
  /** What separates the games that grew most from the rest (Builder and up). */
  patterns: SuccessPatternService;
}

export function createIntelligence(deps: IntelligenceDeps): Intelligence {
  return {
    creators: new CreatorService(deps),
    feed: new FeedService(deps),
    clones: new ClonePairService(deps),
    patterns: new SuccessPatternService(deps),
  };
}

export function registerIntelligence(app: FastifyInstance, intelligence: Intelligence): void {
  for (const schema of feedSchemas) app.addSchema(schema);
  registerCreatorRoutes(app, intelligence.creators);
  registerFeedRoutes(app, intelligence.feed);
  registerCloneRoutes(app, intelligence.clones);
  registerSuccessPatternRoutes(app, intelligence.patterns);
}

/** Stores the clone pairs of games new or changed since the last run (the collector also runs it). */
export function detectClonesJob(clones: ClonePairService): Job {
  return {
    name: 'detect-clones',
    intervalMs: 15 * 60_000,
    leaseMs: 60 * 60_000,
    run: (now, signal) => clones.detect(now, { signal }).then(() => {}),
  };
}
