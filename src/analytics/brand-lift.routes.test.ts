/**
 * The brand-lift view and survey definitions against hand-computed fixtures, on both engines: shown
 * and responses per cohort, a response's cohort from its own field or from the player's latest
 * brand_survey_shown before it (an earlier day's, one before the range, never a later one), the
 * favourable rule with and without a definition, the lift with Newcombe's interval, the z-test's
 * p-value, `sufficient` at 100 responses per cohort, the answer distribution, the platform filter,
 * a segment, and free-text answers refused at ingest. The expected intervals and p-values were
 * computed apart from the service (Python: statistics.NormalDist, math.erfc).
 */
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type AnalyticsTeam,
  analyticsTeam,
  eventFactory,
  getView,
  sendEvents,
  withSegment,
} from '../../test/helpers/analytics.js';
import { buildTestApp, type TestApp } from '../../test/helpers/app.js';
import { testEngines } from '../../test/helpers/db.js';
import { postEvents } from '../../test/helpers/ingest.js';
import { fixedClock } from '../clock.js';

const make = eventFactory('lift');
const shown = (p: string, ts: string, survey: string, cohort?: string, platform = 'platform_2') =>
  make(
    p,
    ts,
    'brand_survey_shown',
    cohort === undefined ? { survey_id: survey } : { survey_id: survey, cohort },
    {
      platform,
    },
  );
const answer = (
  p: string,
  ts: string,
  survey: string,
  a: string,
  more: { favorable?: boolean; cohort?: string } = {},
  platform = 'platform_2',
) => make(p, ts, 'brand_survey_response', { survey_id: survey, answer: a, ...more }, { platform });

/**
 * s1, large: 120 exposed players (shown with cohort exposed on the 18th, their response on the 19th
 * without a cohort), 78 of them favorable: true; 110 control players (response with cohort control),
 * 55 favorable: true. Exposed 0.65, control 0.5.
 *
 * s2, small (the rules):
 *   q1 shown exposed 18th; answers yes (no flag) 18th → exposed, favourable by the definition
 *   q2 answers yes, favorable false, cohort control → control, not favourable (the flag wins)
 *   q3 shown control 18th, exposed 19th 10:00, control 19th 12:00; answers meh, favorable true, at
 *      19th 11:00 → exposed (the latest shown before it), favourable
 *   q4 shown control on the 17th (before the range); answers no on the 18th → control
 *   q5 answers yes without a cohort and never shown → unassigned
 *   q6 answers love with cohort "Exposed" → exposed, favourable by the definition
 *   q7 shown without a cohort → unassigned shown
 * s3: on platform_3, q1 shown exposed and answers yes.
 */
function fixture() {
  const out: Record<string, unknown>[] = [];
  for (let i = 0; i < 120; i += 1) {
    const p = `e${String(i).padStart(3, '0')}`;
    out.push(shown(p, '2026-11-18T09:00:00Z', 's1', 'exposed'));
    out.push(answer(p, '2026-11-19T09:00:00Z', 's1', i < 78 ? 'yes' : 'no', { favorable: i < 78 }));
  }
  for (let i = 0; i < 110; i += 1) {
    const p = `c${String(i).padStart(3, '0')}`;
    out.push(
      answer(p, '2026-11-19T09:00:00Z', 's1', i < 55 ? 'yes' : 'no', {
        favorable: i < 55,
        cohort: 'control',
      }),
    );
  }
  out.push(
    shown('q1', '2026-11-18T10:00:00Z', 's2', 'exposed'),
    answer('q1', '2026-11-18T10:01:00Z', 's2', 'yes'),
    answer('q2', '2026-11-18T10:02:00Z', 's2', 'yes', { favorable: false, cohort: 'control' }),
    shown('q3', '2026-11-18T10:00:00Z', 's2', 'control'),
    shown('q3', '2026-11-19T10:00:00Z', 's2', 'exposed'),
    shown('q3', '2026-11-19T12:00:00Z', 's2', 'control'),
    answer('q3', '2026-11-19T11:00:00Z', 's2', 'meh', { favorable: true }),
    shown('q4', '2026-11-17T10:00:00Z', 's2', 'control'),
    answer('q4', '2026-11-18T10:00:00Z', 's2', 'no'),
    answer('q5', '2026-11-20T10:00:00Z', 's2', 'yes'),
    answer('q6', '2026-11-20T10:00:00Z', 's2', 'love', { cohort: 'Exposed' }),
    shown('q7', '2026-11-18T10:00:00Z', 's2'),
    shown('q1', '2026-11-18T10:00:00Z', 's3', 'exposed', 'platform_3'),
    answer('q1', '2026-11-18T10:01:00Z', 's3', 'yes', {}, 'platform_3'),
  );
  return out;
}

const METHODS = {
  min_responses_per_cohort: 100,
  ci_method: '95% CI, Newcombe hybrid score (Wilson intervals of each cohort)',
  test_method: 'pooled two-proportion z-test, two-sided',
  cohort_rule:
    'A response’s own cohort; without one, the cohort of the same player’s latest brand_survey_shown of the same ' +
    'survey (same game and platform) at or before the response that names one, on any day. exposed and control in ' +
    'any case; anything else, or none, is unassigned.',
};

const cohort = (
  shown: number,
  responses: number,
  favorable: number,
  rate: number | null,
  ci: [number, number] | null,
) => ({
  shown,
  responses,
  favorable,
  favorable_rate: rate,
  favorable_rate_ci: ci === null ? null : { low: ci[0], high: ci[1] },
});
const none = cohort(0, 0, 0, null, null);

const s1 = {
  survey_id: 's1',
  cohorts: {
    exposed: cohort(120, 120, 78, 0.65, [0.5612, 0.7295]),
    control: cohort(0, 110, 55, 0.5, [0.4082, 0.5918]),
    unassigned: none,
  },
  favorable_rule: 'favorable_flag_only',
  favorable_answers: null,
  responses_without_flag: 0,
  lift: { absolute: 0.15, ci: { low: 0.0223, high: 0.2715 }, relative: 0.3, p_value: 0.0214 },
  sufficient: true,
  insufficient_reason: null,
  answers: [
    { answer: 'yes', responses: 133, exposed: 78, control: 55, unassigned: 0, share: 0.5783 },
    { answer: 'no', responses: 97, exposed: 42, control: 55, unassigned: 0, share: 0.4217 },
  ],
};

/** s2 with the definition favorable_answers [love, yes]. */
const s2 = {
  survey_id: 's2',
  cohorts: {
    // Shown: q1 and q3's 19th 10:00 (exposed); q3's 18th and 19th 12:00 (control); q7 (none). q4's is before the range.
    exposed: cohort(2, 3, 3, 1, [0.4385, 1]),
    control: cohort(2, 2, 0, 0, [0, 0.6576]),
    unassigned: cohort(1, 1, 1, 1, [0.2065, 1]),
  },
  favorable_rule: 'favorable_flag_or_answer_keys',
  favorable_answers: ['love', 'yes'],
  responses_without_flag: 4,
  lift: { absolute: 1, ci: { low: 0.1353, high: 1 }, relative: null, p_value: 0.0253 },
  sufficient: false,
  insufficient_reason:
    'exposed has 3 responses and control 2; each cohort needs at least 100 for the lift to be read',
  answers: [
    { answer: 'yes', responses: 3, exposed: 1, control: 1, unassigned: 1, share: 0.5 },
    { answer: 'love', responses: 1, exposed: 1, control: 0, unassigned: 0, share: 0.1667 },
    { answer: 'meh', responses: 1, exposed: 1, control: 0, unassigned: 0, share: 0.1667 },
    { answer: 'no', responses: 1, exposed: 0, control: 1, unassigned: 0, share: 0.1667 },
  ],
};

describe.each(testEngines())('SDK analytics: brand-lift (%s)', (engine) => {
  let t: TestApp;
  let team: AnalyticsTeam;
  const range = { from: '2026-11-18', to: '2026-11-20' };
  const header = {
    game_id: 'g1',
    from: '2026-11-18',
    to: '2026-11-20',
    granularity: 'day',
    history_limited_from: null,
  };
  const survey = (
    id: string,
    method: 'PUT' | 'GET' | 'DELETE',
    headers: Record<string, string>,
    body?: Record<string, unknown>,
  ): Promise<LightMyRequestResponse> =>
    t.app.inject({
      method,
      url: `/api/sdk/surveys/${id}?game_id=g1`,
      headers,
      ...(body === undefined ? {} : { payload: body }),
    });

  beforeAll(async () => {
    t = await buildTestApp({ engine, clock: fixedClock('2026-11-20T12:00:00Z') });
    team = await analyticsTeam(t);
    await sendEvents(t, team.key, fixture());
  });
  afterAll(() => t.close());

  it('sets, reads and deletes a survey definition, for the caller’s team only', async () => {
    const put = await survey('s2', 'PUT', team.headers, { favorable_answers: ['yes', 'love', 'yes'] });
    expect(put.statusCode, put.body).toBe(200);
    expect(put.json()).toEqual({
      game_id: 'g1',
      survey_id: 's2',
      favorable_answers: ['love', 'yes'],
      updated_at: '2026-11-20T12:00:00.000Z',
    });
    expect((await survey('s2', 'GET', team.headers)).json()).toEqual(put.json());
    const other = await analyticsTeam(t);
    expect((await survey('s2', 'GET', other.headers)).statusCode).toBe(404);
    expect((await survey('s2', 'DELETE', other.headers)).statusCode).toBe(404);
    const bad = await survey('s2', 'PUT', team.headers, { favorable_answers: ['very good'] });
    expect(bad.statusCode).toBe(422);
    expect(bad.json()).toMatchObject({ code: 'validation_failed' });
    expect((await survey('s2', 'PUT', team.headers, { favorable_answers: [] })).statusCode).toBe(422);
    expect((await survey('nope', 'DELETE', team.headers)).statusCode).toBe(404);
  });

  it('answers the lift per survey with numbers computed by hand', async () => {
    await survey('s2', 'PUT', team.headers, { favorable_answers: ['yes', 'love'] });
    const res = await getView(t, team.headers, 'g1', 'brand-lift', { ...range, platform: 'platform_2' });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({
      ...header,
      platform: 'platform_2',
      segment: null,
      surveys: [s1, s2],
      ...METHODS,
    });
  });

  it('counts only favorable: true without a definition, and says so', async () => {
    expect((await survey('s2', 'DELETE', team.headers)).statusCode).toBe(204);
    const got = (
      await getView(t, team.headers, 'g1', 'brand-lift', { ...range, platform: 'platform_2' })
    ).json();
    // Only q3 (exposed) said favorable: true: 1 of 3 exposed, 0 of 2 control.
    expect(got.surveys[1]).toEqual({
      ...s2,
      cohorts: {
        exposed: cohort(2, 3, 1, 0.3333, [0.0615, 0.7923]),
        control: s2.cohorts.control,
        unassigned: cohort(1, 1, 0, 0, [0, 0.7935]),
      },
      favorable_rule: 'favorable_flag_only',
      favorable_answers: null,
      lift: { absolute: 0.3333, ci: { low: -0.3783, high: 0.7923 }, relative: null, p_value: 0.361 },
    });
    await survey('s2', 'PUT', team.headers, { favorable_answers: ['yes', 'love'] });
  });

  it('combines the platforms, keeps one with the filter, and keeps a segment’s players', async () => {
    const all = (await getView(t, team.headers, 'g1', 'brand-lift', range)).json();
    expect(all.surveys.map((s: { survey_id: string }) => s.survey_id)).toEqual(['s1', 's2', 's3']);
    expect(all.surveys[2]).toMatchObject({
      survey_id: 's3',
      cohorts: { exposed: cohort(1, 1, 0, 0, [0, 0.7935]), control: none, unassigned: none },
      lift: { absolute: null, ci: null, relative: null, p_value: null },
      sufficient: false,
      insufficient_reason:
        'exposed has 1 responses and control 0; each cohort needs at least 100 for the lift to be read',
    });
    const q = { ...range, platform: 'platform_2', segment: '9' };
    const seg = (
      await withSegment(t, ['q1', 'q2', 'q3'], () => getView(t, team.headers, 'g1', 'brand-lift', q))
    ).json();
    expect(seg.surveys).toEqual([
      {
        ...s2,
        cohorts: {
          exposed: cohort(2, 2, 2, 1, [0.3424, 1]),
          control: cohort(2, 1, 0, 0, [0, 0.7935]),
          unassigned: none,
        },
        responses_without_flag: 1,
        lift: { absolute: 1, ci: { low: -0.0305, high: 1 }, relative: null, p_value: 0.0833 },
        insufficient_reason:
          'exposed has 2 responses and control 1; each cohort needs at least 100 for the lift to be read',
        answers: [
          { answer: 'yes', responses: 2, exposed: 1, control: 1, unassigned: 0, share: 0.6667 },
          { answer: 'meh', responses: 1, exposed: 1, control: 0, unassigned: 0, share: 0.3333 },
        ],
      },
    ]);
  });

  it('takes the cohort of a shown that arrives late for an earlier day', async () => {
    // q5's response (20th) had no shown; one for the 19th arrives now.
    await sendEvents(t, team.key, [shown('q5', '2026-11-19T08:00:00Z', 's2', 'control')]);
    const got = (
      await getView(t, team.headers, 'g1', 'brand-lift', { ...range, platform: 'platform_2' })
    ).json();
    expect(got.surveys[1].cohorts).toEqual({
      exposed: s2.cohorts.exposed,
      control: cohort(3, 3, 1, 0.3333, [0.0615, 0.7923]),
      unassigned: cohort(1, 0, 0, null, null),
    });
  });

  it('refuses a free-text answer at ingest', async () => {
    const res = await postEvents(t.app, {
      api_key: team.key,
      events: [answer('q9', '2026-11-20T10:00:00Z', 's2', 'I really like it!')],
    });
    expect(res.statusCode).toBeLessThan(300);
    expect(res.json()).toMatchObject({
      accepted: 0,
      rejected: 1,
      errors: [{ field: 'payload.answer', code: 'invalid_format' }],
    });
  });
});
