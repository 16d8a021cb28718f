/**
 * Keyword intelligence: the words and phrases of game titles and descriptions, what demand they
 * carry and how it moves, and how a draft title compares. Owns game_keywords, game_keyword_sources
 * and keyword_trends; reads the catalogue and the daily rollups; never writes another domain's
 * tables.
 */
import type { FastifyInstance } from 'fastify';
import type { Job } from '../jobs/scheduler.js';
import { registerKeywordRoutes } from './keywords.routes.js';
import { keywordSchemas } from './keywords.schemas.js';
import { KeywordService, type KeywordsDeps } from './keywords.service.js';

export { KeywordService } from './keywords.service.js';
export { textTerms } from './terms.js';

export function createKeywords(deps: KeywordsDeps): KeywordService {
  return new KeywordService(deps);
}

export function registerKeywords(app: FastifyInstance, keywords: KeywordService): void {
  for (const schema of keywordSchemas) app.addSchema(schema);
  registerKeywordRoutes(app, keywords);
}

/**
 * Keeps every game's keywords in step with its text and computes the lists once a day (the
 * collector also refreshes after each collection; this runs it where no collector does).
 */
export function refreshKeywordsJob(keywords: KeywordService): Job {
  return {
    name: 'refresh-keywords',
    intervalMs: 60 * 60_000,
    leaseMs: 60 * 60_000,
    run: (now, signal) => keywords.refresh(now, signal).then(() => {}),
  };
}
