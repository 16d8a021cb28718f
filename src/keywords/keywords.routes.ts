import type { App } from '../http/index.js';
import { errorResponses } from '../http/schemas.js';
import { sendSerialised } from '../http/serializers.js';
import { effectivePlan } from '../identity.js';
import {
  KeywordParams,
  KeywordQuery,
  KeywordResponse,
  ScoreTitleQuery,
  ScoreTitleResponse,
  TrendingKeywordsQuery,
  TrendingKeywordsResponse,
} from './keywords.schemas.js';
import { type KeywordService, LIST_CACHE_MS } from './keywords.service.js';
import { TRENDS_METHOD } from './trends.js';

const access = { auth: 'read' } as const;
const tags = ['keywords'];

export function registerKeywordRoutes(app: App, keywords: KeywordService): void {
  // The static paths win over /:keyword (find-my-way prefers static segments).
  app.get(
    '/api/keywords/trending',
    {
      config: { access },
      schema: {
        tags,
        summary: 'Keywords of game titles and descriptions, by opportunity, demand or growth',
        description:
          'The lists are computed once a day, after the UTC day is rolled up; pages are served from memory for ' +
          `${LIST_CACHE_MS / 1000} s. A cursor is a position in the list, so a page read after the daily ` +
          `recomputation continues in the new list. ${TRENDS_METHOD}`,
        querystring: TrendingKeywordsQuery,
        response: { 200: TrendingKeywordsResponse, ...errorResponses(422) },
      },
    },
    async (request, reply) =>
      sendSerialised(reply, await keywords.trending(request.query, effectivePlan(request.principal))),
  );
  app.get(
    '/api/keywords/score-title',
    {
      config: { access },
      schema: {
        tags,
        summary: "A draft title's keywords, their demand and competition, the closest titles and clone risk",
        description: 'Figures from the genre’s 30-day keyword list; see the method field of the answer.',
        querystring: ScoreTitleQuery,
        response: { 200: ScoreTitleResponse, ...errorResponses(422) },
      },
    },
    async (request) => keywords.scoreTitle(request.query),
  );
  app.get(
    '/api/keywords/:keyword',
    {
      config: { access },
      schema: {
        tags,
        summary: 'One keyword: the games using it, its demand history and related keywords',
        description:
          '404 not_found when no collected game (of the genre, with `genre`) carries the keyword. The games are ' +
          `paginated with a cursor; history and related keywords come with every page. ${TRENDS_METHOD}`,
        params: KeywordParams,
        querystring: KeywordQuery,
        response: { 200: KeywordResponse, ...errorResponses(404, 422) },
      },
    },
    async (request) =>
      keywords.keyword(request.params.keyword, request.query, effectivePlan(request.principal)),
  );
}
