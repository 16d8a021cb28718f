import { Type } from 'typebox';
import type { App } from '../http/index.js';
import { errorResponses } from '../http/schemas.js';
import { effectivePlan } from '../identity.js';
import { CLONE_THRESHOLD, MAX_CLONES, MIN_DESCRIPTION_WORDS } from './clones.js';
import {
  DAILY_HISTORY_DAYS,
  DetailQuery,
  type GameDetailT,
  PlaceParams,
  SearchQuery,
  SearchResponse,
} from './games.schemas.js';
import { FUZZY_THRESHOLD, type GamesService } from './games.service.js';

const SEARCH_DESCRIPTION = [
  'Finds games by name or creator. Matching ignores case and accents ("pokemon" finds "Pokémon") and ' +
    'tolerates typos ("adpot me" finds "Adopt Me!") through trigram similarity; a numeric `q` also ' +
    'matches a place id or universe id exactly.',
  'Ranking, best first: (1) an exact place or universe id; (2) the whole name; (3) names that start with ' +
    '`q`; (4) a name or creator word that starts with `q`; (5) `q` anywhere in the name or creator; ' +
    `(6) typo-tolerant matches (word similarity ≥ ${FUZZY_THRESHOLD}, queries of 3 characters or more). Within a tier, ` +
    'closer word similarity first, then higher CCU, then universe id, so pages are stable.',
  '`ccu` is the latest reading: a game the platform could not read at the last collection keeps its ' +
    'last known value; a game never read reports 0. No game is left out for lack of a reading.',
].join('\n\n');

const DETAIL_DESCRIPTION = [
  'A game from the collected catalogue, by root place id (404 not_found when it is not collected).',
  '`ccu_history`: hourly mean CCU over the current hour and the 23 before it, oldest first; with ' +
    `\`history=daily\`, the daily mean CCU of the last ${DAILY_HISTORY_DAYS} UTC days (today so far included), oldest first, ` +
    'days without a reading left out. ' +
    '`ml_prediction.trend_score` is the 24 h trend score of GET /api/trending?period=24h. ' +
    '`ml_prediction.growth_probability` is null on the Explorer plan; on other plans it is the ' +
    "forecast probability that CCU in 7 days exceeds today's mean, null while the game has no forecast.",
  '`clones`: other games of the same genre whose name or description is a near-duplicate, similarity ≥ ' +
    `${CLONE_THRESHOLD}, most similar first, then by CCU; at most ${MAX_CLONES}. Names are normalised the way copycats ` +
    'vary them: case, accents, emoji and punctuation ignored, bracketed or parenthesised tags dropped, ' +
    'new/free/update/beta/official markers and trailing x, version numbers ("2", "v3") or roman numerals ' +
    'peeled off the ends, so "Adopt Me! [UPDATE]", "adopt me 2" and "NEW Adopt Me X" all read "adopt me". ' +
    'Similarity is the Jaccard index of the character trigrams (as pg_trgm makes them) of the normalised ' +
    'names, or of the descriptions with each game’s own name taken out. Descriptions count only when at least ' +
    `${MIN_DESCRIPTION_WORDS} words remain on both sides: short ones are mostly templates that many unrelated games share.`,
].join('\n\n');

export function registerGameRoutes(app: App, games: GamesService): void {
  const tags = ['games'];
  const access = { auth: 'read' as const };

  app.get(
    '/api/search',
    {
      config: { access },
      schema: {
        tags,
        summary: 'Search games by name, creator or id',
        description: SEARCH_DESCRIPTION,
        querystring: SearchQuery,
        response: { 200: SearchResponse, ...errorResponses(422) },
      },
    },
    async (request) => games.search(request.query),
  );

  app.get(
    '/api/game/:place_id',
    {
      config: { access },
      schema: {
        tags,
        summary: "One game's detail, 24 h CCU history and trend",
        description: DETAIL_DESCRIPTION,
        params: PlaceParams,
        querystring: DetailQuery,
        response: { 200: Type.Ref('GameDetail'), ...errorResponses(404, 422) },
      },
    },
    async (request): Promise<GameDetailT> =>
      games.detail(request.params.place_id, effectivePlan(request.principal), request.query.history),
  );
}
