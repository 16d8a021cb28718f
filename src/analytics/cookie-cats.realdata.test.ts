/**
 * Real data: the Cookie Cats A/B test (test/helpers/cookie-cats.ts: the file, how it becomes events,
 * the per-variant counts taken with awk), sent once. The retention view, filtered by a segment on an
 * extra payload field, must reproduce the data set's D1 and D7 retention per variant exactly; and the
 * same players sent as experiment exposures must give an experiment whose results match them too,
 * with the published conclusion: the D7 difference significant at 5%, the D1 difference not.
 */
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type AnalyticsTeam, analyticsTeam, getView, sendEvents } from '../../test/helpers/analytics.js';
import { buildTestApp, type TestApp } from '../../test/helpers/app.js';
import {
  COOKIE_CATS_COHORT as COHORT,
  COOKIE_CATS_EXPERIMENT,
  COOKIE_CATS_GAME,
  cookieCatsEvents,
  COOKIE_CATS_COUNTS as EXPECTED,
  COOKIE_CATS_FILE as FILE,
} from '../../test/helpers/cookie-cats.js';
import { POSTGRES_URL } from '../../test/helpers/db.js';
import { hasRealdata, needsRealdata, realdataFile } from '../../test/helpers/realdata.js';
import { fixedClock } from '../clock.js';

const share = (x: number, n: number) => Number((x / n).toFixed(4));

// Guarded twice: the suite is skipped when the file is in neither realdata folder (a fresh clone
// has no ../shared), and each test carries needsRealdata so the run's notice names the skip. The
// file is read only inside the suite's beforeAll, which a skipped suite never runs.
describe.skipIf(!hasRealdata(FILE))('real data: Cookie Cats', () => {
  let t: TestApp | undefined;
  let team: AnalyticsTeam;
  beforeAll(async () => {
    // The clock stands still: the ingest bucket would never refill.
    // 230k events: on PostgreSQL when the run has it (35 s against 60 s on PGlite; the engines agree
    // on every view, which the route tests show on both).
    t = await buildTestApp({
      engine: POSTGRES_URL ? 'postgres' : 'pglite',
      clock: fixedClock('2026-10-20T12:00:00Z'),
      env: { ENTITLEMENTS: JSON.stringify({ ingestBurst: 1_000_000, ingestPerSecond: 1_000_000 }) },
    });
    team = await analyticsTeam(t, 'Enterprise');
    t.app.ingest.service.mode = 'sync';
    await sendEvents(t, team.key, cookieCatsEvents(readFileSync(realdataFile(FILE), 'utf8')));
  }, 600_000);
  afterAll(() => t?.close());

  it(
    'reproduces each variant’s D1 and D7 through a segment on an extra payload field',
    needsRealdata(FILE),
    async () => {
      const app = t!;
      for (const [variant, want] of Object.entries(EXPECTED)) {
        const created = await app.app.inject({
          method: 'POST',
          url: '/api/sdk/segments',
          headers: team.headers,
          payload: { name: variant, conditions: [{ field: 'payload.version', op: 'eq', value: variant }] },
        });
        expect(created.statusCode, created.body).toBe(201);
        const res = await getView(app, team.headers, COOKIE_CATS_GAME, 'retention', {
          from: COHORT,
          to: COHORT,
          segment: String(created.json().id),
        });
        expect(res.statusCode, res.body).toBe(200);
        const [cohort] = res.json().cohorts as { date: string; size: number; classic: (number | null)[] }[];
        expect(cohort!.date).toBe(COHORT);
        expect(cohort!.size).toBe(want.players);
        expect(cohort!.classic[0]).toBe(share(want.d1, want.players));
        expect(cohort!.classic[6]).toBe(share(want.d7, want.players));
        expect(res.json().summary.classic).toMatchObject({
          d1: share(want.d1, want.players),
          d7: share(want.d7, want.players),
        });
      }
    },
  );

  it(
    'as an experiment: D1 and D7 per variant as published, D7 significant at 5% and D1 not',
    needsRealdata(FILE),
    async () => {
      const app = t!;
      const created = await app.app.inject({
        method: 'POST',
        url: '/api/sdk/experiments',
        headers: team.headers,
        payload: {
          game_id: COOKIE_CATS_GAME,
          key: COOKIE_CATS_EXPERIMENT,
          variants: [
            { key: 'gate_30', weight: 1 },
            { key: 'gate_40', weight: 1 },
          ],
          primary_metric: { metric: 'd7_retention' },
          secondary_metrics: [{ metric: 'd1_retention' }],
          minimum_detectable_effect: 0.01,
          start_day: COHORT,
        },
      });
      expect(created.statusCode, created.body).toBe(201);
      const res = await app.app.inject({
        url: `/api/sdk/experiments/${created.json().id}/results`,
        headers: team.headers,
      });
      expect(res.statusCode, res.body).toBe(200);
      const r = res.json();
      expect(r.exposure).toMatchObject({ players_exposed: 90_189, contaminated: 0, unknown_variant: 0 });
      const [d7, d1] = r.metrics as {
        metric: string;
        variants: { players: number; successes: number; value: number; p_value: number | null }[];
      }[];
      expect(d7!.metric).toBe('d7_retention');
      expect(d1!.metric).toBe('d1_retention');
      const [g30, g40] = [EXPECTED.gate_30, EXPECTED.gate_40];
      expect(d7!.variants.map((v) => [v.players, v.successes])).toEqual([
        [g30.players, g30.d7],
        [g40.players, g40.d7],
      ]);
      expect(d1!.variants.map((v) => [v.players, v.successes])).toEqual([
        [g30.players, g30.d1],
        [g40.players, g40.d1],
      ]);
      // Published: D1 44.82% / 44.23%, D7 19.02% / 18.20%.
      expect(d1!.variants.map((v) => Number(v.value.toFixed(4)))).toEqual([0.4482, 0.4423]);
      expect(d7!.variants.map((v) => Number(v.value.toFixed(4)))).toEqual([0.1902, 0.182]);
      // Pooled z-test (SciPy): D7 p = 0.00155425, D1 p = 0.0744097.
      expect(d7!.variants[1]!.p_value).toBe(0.00155425);
      expect(d7!.variants[1]!.p_value).toBeLessThan(0.05);
      expect(d1!.variants[1]!.p_value).toBe(0.0744097);
      expect(d1!.variants[1]!.p_value).toBeGreaterThan(0.05);
      // 44,700 / 45,489 against 1:1: chi-square 6.9024, p = 0.0086 (not below 0.001).
      expect(r.sample_ratio_mismatch).toMatchObject({
        statistic: 6.9024,
        p_value: 0.00860799,
        flagged: false,
      });
      // Fleiss for 0.190201 → +0.01: 24,660 per variant, reached; gate_40 is worse.
      expect(r.sample_size).toMatchObject({ required_per_variant: 24_660, reached: true });
      expect(r.verdict.status).toBe('control_better');
    },
  );
});
