import type { App } from '../http/index.js';
import { errorResponses } from '../http/schemas.js';
import { effectivePlan } from '../identity.js';
import { MIN_HISTORY_DAYS } from './forecast/index.js';
import { ForecastResponse } from './forecast.schemas.js';
import { FIT_DAYS, type ForecastService, HORIZON_DAYS, LEVEL } from './forecast.service.js';
import { PlaceParams } from './games.schemas.js';

const DESCRIPTION = [
  `Daily mean CCU forecast of a collected game, from its daily means (at most the last ${FIT_DAYS} complete UTC days). ` +
    'The model is chosen per game from the data (see `model_version`); forecasts are recomputed daily at 04:00 UTC ' +
    'and after a backfill, and computed on demand when a game has none from today.',
  'Plans: Explorer 403 plan_upgrade_required; Builder 7 daily points without bounds; Studio and Enterprise ' +
    `${HORIZON_DAYS} daily points with ${LEVEL * 100}% bounds (the interval holds about ${LEVEL * 100}% of outcomes ` +
    'on back-tests: `npm run bench -- forecast`).',
  `404 not_found for a game the service does not collect; 422 insufficient_history under ${MIN_HISTORY_DAYS} days of history.`,
].join('\n\n');

export function registerForecastRoutes(app: App, forecasts: ForecastService): void {
  app.get(
    '/api/forecast/:place_id',
    {
      config: { access: { auth: 'read', plan: 'Builder', feature: 'Forecasts' } },
      schema: {
        tags: ['games'],
        summary: 'CCU forecast of a game with prediction intervals',
        description: DESCRIPTION,
        params: PlaceParams,
        response: { 200: ForecastResponse, ...errorResponses(404, 422) },
      },
    },
    async (request) => forecasts.forGame(request.params.place_id, effectivePlan(request.principal)),
  );
}
