import { Type } from 'typebox';
import type { App } from '../http/index.js';
import { errorResponses } from '../http/schemas.js';
import { CALIBRATION, CREATOR_SHARE, DEVEX_USD_PER_ROBUX, MIN_GENRE_GAMES } from './revenue.model.js';
import { RevenueBody, RevenueEstimate, type RevenueEstimateT } from './revenue.schemas.js';
import type { RevenueService } from './revenue.service.js';

const pct = (x: number) => `${Math.round(x * 100)}%`;

const DESCRIPTION = [
  "Estimates a game's monthly game-pass earnings from its average CCU, pass count, average pass price (Robux) and genre.",
  'Model: DAU = avg_ccu × 24 / session_hours[genre]; monthly payers = DAU × payers_per_dau[genre]; each payer buys ' +
    'min(passes_per_payer[genre], gamepass_count) passes a month at avg_gamepass_price; the creator keeps ' +
    `${pct(CREATOR_SHARE)} of the Robux spent, paid out at the DevEx rate of ${DEVEX_USD_PER_ROBUX} USD per Robux. ` +
    '`monthly_estimate` is rounded to the cent and `yearly_estimate` is exactly 12 times it. `assumptions` lists ' +
    'every constant used, `breakdown` the intermediate figures. The genre priors are design values (no public ' +
    'per-genre data exists) equal to the genre means of the simulated market.',
  `Accuracy: against the simulated market's own revenue (each game drawing its session length, return rate, payer share and appetite around the genre means), the median game is within a factor e^${CALIBRATION.medianAbsLogError} ≈ ${Math.exp(CALIBRATION.medianAbsLogError).toFixed(1)} (median |ln(estimate/truth)| ≤ ${CALIBRATION.medianAbsLogError}) and the market's total within ±${pct(CALIBRATION.aggregateRelativeError)}. Treat a single estimate as an order of magnitude.`,
  '`confidence`: each input is placed among the stored games of the genre (avg_ccu among latest CCU readings, ' +
    "gamepass_count among pass counts, avg_gamepass_price among games' median pass prices): `typical` within the " +
    '10th–90th percentiles, `unusual` within the observed range, `outside_range` beyond it (the price counts as ' +
    'typical when gamepass_count is 0). high: all typical; medium: none outside the range; low: one outside it, ' +
    `or fewer than ${MIN_GENRE_GAMES} stored games of the genre with a reading.`,
  "`genre_avg_revenue`: the same model applied to the genre's median game in the stored catalogue (median latest " +
    "CCU, median pass count, median of the games' median pass prices, each over the games that have it).",
  'Invalid input (negative or fractional CCU or pass count, negative price, unknown genre key) → 422 naming the ' +
    'field. Signed-in users only (cookie with X-CSRF-Token, or bearer); API keys get 403 api_key_read_only.',
].join('\n\n');

export function registerRevenueRoutes(app: App, revenue: RevenueService): void {
  app.post(
    '/api/revenue-simulator',
    {
      config: { access: { auth: 'user' } },
      schema: {
        tags: ['games'],
        summary: "Estimate a game's game-pass revenue",
        description: DESCRIPTION,
        body: RevenueBody,
        response: { 200: Type.Ref('RevenueEstimate'), ...errorResponses(422) },
      },
    },
    async (request): Promise<RevenueEstimateT> => revenue.simulate(request.body),
  );
}

export const revenueSchemas = [RevenueEstimate];
