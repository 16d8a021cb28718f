/**
 * The scheduled rollup job (refresh-sdk-rollups): it brings the dashboards up to date and, after a
 * run that folded anything, asks the scheduler for a pause proportional to the work (rollups.ts:
 * the upkeep's share of the database stays bounded); a run with nothing to do asks for none.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type AnalyticsTeam, analyticsTeam, getView } from '../../test/helpers/analytics.js';
import { buildTestApp, type TestApp } from '../../test/helpers/app.js';
import { testEngines } from '../../test/helpers/db.js';
import { postEvents } from '../../test/helpers/ingest.js';
import { fixedClock } from '../clock.js';
import { rollupJob } from './index.js';
import { pendingRollups } from './rollups.repo.js';

describe.each(testEngines())('the scheduled rollup job (%s)', (engine) => {
  let t: TestApp;
  let team: AnalyticsTeam;
  beforeAll(async () => {
    t = await buildTestApp({ engine, clock: fixedClock('2026-11-20T12:00:00Z') });
    team = await analyticsTeam(t);
  });
  afterAll(() => t.close());

  it('folds the queued batches (one part per day), then asks for a pause; with nothing queued, for none', async () => {
    const events = ['a', 'b', 'c'].map((p, i) => ({
      event_id: `paced-job-${p}`,
      type: 'session_start',
      platform: 'platform_2',
      game_id: 'paced',
      player_id: p,
      session_id: `s-${p}`,
      ts: `2026-11-${18 + i}T10:00:00Z`,
      payload: {},
    }));
    const res = await postEvents(t.app, { api_key: team.key, events });
    expect(res.json(), res.body).toMatchObject({ accepted: 3, rejected: 0 });
    await t.app.ingest.writer.flush();
    expect(await pendingRollups(t.services.db)).toBe(3);

    const job = rollupJob(t.services.analytics);
    const signal = new AbortController().signal;
    const first = await job.run(new Date('2026-11-20T12:00:00Z'), signal);
    expect(first?.pauseMs).toBeGreaterThan(0);
    expect(await pendingRollups(t.services.db)).toBe(0);
    const overview = await getView(t, team.headers, 'paced', 'overview', {
      from: '2026-11-18',
      to: '2026-11-20',
    });
    expect(overview.statusCode, overview.body).toBe(200);
    expect(overview.json().dau).toEqual([
      { date: '2026-11-18', players: 1 },
      { date: '2026-11-19', players: 1 },
      { date: '2026-11-20', players: 1 },
    ]);

    expect(await job.run(new Date('2026-11-20T12:00:10Z'), signal)).toEqual({ pauseMs: 0 });
  });
});
