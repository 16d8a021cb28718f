/**
 * Real data: the Cookie Cats A/B test (90,189 real players of a mobile game, each with its variant,
 * gate_30 or gate_40, and whether it came back on day 1 and on day 7; no licence stated, so it
 * stays in ../shared/realdata and this test is skipped without it). Each player becomes events: a
 * session_start on the cohort day carrying the variant as an EXTRA payload field, and one on day 1
 * and day 7 when the player came back then. The retention view, filtered by a segment on that extra
 * field, must reproduce the data set's D1 and D7 retention per variant exactly.
 *
 * The counts below were taken from the CSV with awk, independently of the code under test:
 *   gate_30: 44,700 players, 20,034 back on day 1, 8,502 on day 7
 *   gate_40: 45,489 players, 20,119 back on day 1, 8,279 on day 7
 */
import { readFileSync } from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import { analyticsTeam, getView, sendEvents } from '../../test/helpers/analytics.js';
import { buildTestApp, type TestApp } from '../../test/helpers/app.js';
import { hasRealdata, needsRealdata, realdataFile } from '../../test/helpers/realdata.js';
import { fixedClock } from '../clock.js';

const FILE = 'events/cookie-cats_ab-test_per-user-d1-d7-retention__atlam0s.csv';
const COHORT = '2026-10-01';
const DAY = 86_400_000;

const EXPECTED = {
  gate_30: { players: 44_700, d1: 20_034, d7: 8_502 },
  gate_40: { players: 45_489, d1: 20_119, d7: 8_279 },
};

/** The data set's CSV text as events. */
function events(csv: string): Record<string, unknown>[] {
  const lines = csv.trim().split('\n').slice(1);
  const out: Record<string, unknown>[] = [];
  const at = (day: number, user: string) =>
    new Date(Date.parse(`${COHORT}T00:00:00Z`) + day * DAY + (Number(user) % 80_000) * 1000).toISOString();
  for (const line of lines) {
    const [user, version, rounds, d1, d7] = line.split(',') as [string, string, string, string, string];
    const base = {
      platform: 'platform_2',
      game_id: 'cookie-cats',
      player_id: `cc-${user}`,
      type: 'session_start',
    };
    out.push({
      ...base,
      event_id: `cc-${user}-d0`,
      ts: at(0, user),
      payload: { version, game_rounds: Number(rounds) },
    });
    if (d1 === 'True') out.push({ ...base, event_id: `cc-${user}-d1`, ts: at(1, user), payload: {} });
    if (d7.trim() === 'True') out.push({ ...base, event_id: `cc-${user}-d7`, ts: at(7, user), payload: {} });
  }
  return out;
}

// Guarded twice: the suite is skipped when the file is in neither realdata folder (a fresh clone
// has no ../shared), and the test carries needsRealdata so the run's notice names the skip. The
// file is read only inside the test.
describe.skipIf(!hasRealdata(FILE))('real data: Cookie Cats D1 and D7 retention per variant', () => {
  let t: TestApp | undefined;
  afterAll(() => t?.close());

  it('reproduces each variant’s D1 and D7 through a segment on an extra payload field', {
    ...needsRealdata(FILE),
    timeout: 600_000,
  }, async () => {
    // The clock stands still: the ingest bucket would never refill.
    t = await buildTestApp({
      clock: fixedClock('2026-10-20T12:00:00Z'),
      env: { ENTITLEMENTS: JSON.stringify({ ingestBurst: 1_000_000, ingestPerSecond: 1_000_000 }) },
    });
    const app = t;
    const team = await analyticsTeam(app, 'Enterprise');
    app.app.ingest.service.mode = 'sync';
    await sendEvents(app, team.key, events(readFileSync(realdataFile(FILE), 'utf8')));
    for (const [variant, want] of Object.entries(EXPECTED)) {
      const created = await app.app.inject({
        method: 'POST',
        url: '/api/sdk/segments',
        headers: team.headers,
        payload: { name: variant, conditions: [{ field: 'payload.version', op: 'eq', value: variant }] },
      });
      expect(created.statusCode, created.body).toBe(201);
      const res = await getView(app, team.headers, 'cookie-cats', 'retention', {
        from: COHORT,
        to: COHORT,
        segment: String(created.json().id),
      });
      expect(res.statusCode, res.body).toBe(200);
      const [cohort] = res.json().cohorts as { date: string; size: number; classic: (number | null)[] }[];
      expect(cohort!.date).toBe(COHORT);
      expect(cohort!.size).toBe(want.players);
      expect(cohort!.classic[0]).toBe(Number((want.d1 / want.players).toFixed(4)));
      expect(cohort!.classic[6]).toBe(Number((want.d7 / want.players).toFixed(4)));
      expect(res.json().summary.classic).toMatchObject({
        d1: Number((want.d1 / want.players).toFixed(4)),
        d7: Number((want.d7 / want.players).toFixed(4)),
      });
    }
  });
});
