import type { ValidateFunction } from 'ajv';
import type { TSchema } from 'typebox';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { migratedDb, type TestDb } from '../../test/helpers/db.js';
import { testMarket } from '../../test/helpers/market.js';
import { closedValidator, expectValid } from '../../test/helpers/serialised-body.js';
import { DEFAULT_ENTITLEMENTS, PLANS } from '../plans.js';
import { backfill } from './backfill.js';
import {
  BreakoutResponse,
  GenreOpportunities,
  marketSchemas,
  OverviewResponse,
  TimingResponse,
  TrendingResponse,
} from './market.schemas.js';
import { MarketService } from './market.service.js';
import { PERIODS } from './trend.js';
import { refreshViews } from './views.service.js';

/**
 * The market bodies skip Fastify's serialiser (which would drop undeclared fields and coerce
 * types): every body the service can serve must already be exactly what its route declares.
 */
const NOW = new Date('2026-11-22T15:05:00Z');
const log = { info: () => {}, warn: () => {} };

const validator = (schema: TSchema): ValidateFunction => closedValidator(schema, marketSchemas);

let t: TestDb;
let market: MarketService;

beforeAll(async () => {
  t = await migratedDb();
  await backfill({ db: t.db, platform: testMarket(), log }, 35, NOW);
  await refreshViews(t.db, NOW, { force: true });
  market = new MarketService({ db: t.db, entitlements: DEFAULT_ENTITLEMENTS });
}, 120_000);
afterAll(() => t.dispose());

describe('every pre-serialised market body matches its route’s response schema', () => {
  it('trending: every period, every plan, with and without a genre filter', async () => {
    const validate = validator(TrendingResponse);
    for (const period of PERIODS) {
      for (const plan of PLANS) {
        for (const genre of [undefined, 'simulation']) {
          const query = { period, limit: 1000, ...(genre ? { genre } : {}) };
          const body = expectValid(
            validate,
            await market.trending(query, plan),
            `${period} ${plan} ${genre}`,
          );
          expect((body as { games: unknown[] }).games.length).toBeGreaterThan(0);
        }
      }
    }
  });

  it('genre opportunities: the full table and the free shape', async () => {
    const validate = validator(GenreOpportunities);
    const shapes = new Set<string>();
    for (const plan of PLANS) {
      const body = expectValid(validate, await market.genreOpportunities(plan), plan) as {
        locked: boolean;
      }[];
      expect(body.length).toBeGreaterThan(0);
      shapes.add(body[0]!.locked ? 'free' : 'full');
    }
    expect([...shapes].sort()).toEqual(['free', 'full']);
  });

  it('genre timing, breakout radar and overview', async () => {
    const timing = expectValid(validator(TimingResponse), await market.timing(), 'timing');
    expect((timing as { recommendations: unknown[] }).recommendations.length).toBeGreaterThan(0);
    const radar = expectValid(validator(BreakoutResponse), await market.breakoutRadar(), 'breakout');
    expect((radar as { games: unknown[] }).games.length).toBeGreaterThan(0);
    const overview = expectValid(validator(OverviewResponse), await market.overview(), 'overview');
    expect((overview as { top_games: unknown[] }).top_games.length).toBeGreaterThan(0);
  });

  it('the strict check refuses a field the schema does not declare', () => {
    const validate = validator(BreakoutResponse);
    expect(validate({ games: [], computed_at: NOW.toISOString() })).toBe(true);
    expect(validate({ games: [], computed_at: NOW.toISOString(), extra: 1 })).toBe(false);
  });
});
