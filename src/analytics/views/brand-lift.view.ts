/**
 * brand-lift: per survey, how many were shown it and answered it in the exposed and control cohorts,
 * the favourable rate of each, and the lift (exposed − control) with Newcombe's hybrid score 95%
 * interval, the relative lift and the pooled two-proportion z-test's two-sided p-value; flagged
 * insufficient below MIN_RESPONSES responses in either cohort. Plus each answer key's count.
 * Answers are fixed-choice keys (ingest refuses free text), so they are listed as sent.
 */
import { type Static, Type } from 'typebox';
import { newcombeDifference, twoProportionTest, wilson } from '../../stats.js';
import { viewResponse } from '../analytics.schemas.js';
import {
  type CohortClass,
  type ResponseRow,
  type ShownRow,
  SURVEY_LIST_LIMIT,
  surveyDefinitions,
  surveyResponses,
  surveyShown,
} from './brand-lift.repo.js';
import { round4 } from './figures.js';
import type { View } from './view.js';

/** Responses each cohort needs before the lift is read as sufficient. */
export const MIN_RESPONSES = 100;
export const CI_METHOD = '95% CI, Newcombe hybrid score (Wilson intervals of each cohort)';
export const TEST_METHOD = 'pooled two-proportion z-test, two-sided';
export const RULE_WITH_KEYS = 'favorable_flag_or_answer_keys';
export const RULE_FLAG_ONLY = 'favorable_flag_only';

const Rate = (description: string) =>
  Type.Union([Type.Number({ minimum: 0, maximum: 1 }), Type.Null()], { description });
const Interval = (description: string) =>
  Type.Union(
    [
      Type.Object({
        low: Type.Number({ description: 'Lower bound, 4 decimals.' }),
        high: Type.Number({ description: 'Upper bound, 4 decimals.' }),
      }),
      Type.Null(),
    ],
    { description },
  );

const CohortFigures = Type.Object({
  shown: Type.Integer({
    minimum: 0,
    description: 'brand_survey_shown events of the range whose own cohort is this one.',
  }),
  responses: Type.Integer({
    minimum: 0,
    description: 'brand_survey_response events of the range in this cohort (see cohort_rule).',
  }),
  favorable: Type.Integer({ minimum: 0, description: 'Of them, favourable ones (see favorable_rule).' }),
  favorable_rate: Rate('favorable / responses, 4 decimals (a share of 1); null without responses.'),
  favorable_rate_ci: Interval('95% CI of favorable_rate, Wilson score interval; null without responses.'),
});

const SurveyFigures = Type.Object({
  survey_id: Type.String({ description: 'The survey, as brand_survey_shown/response send it.' }),
  cohorts: Type.Object(
    { exposed: CohortFigures, control: CohortFigures, unassigned: CohortFigures },
    {
      description:
        'unassigned: shown events without an exposed/control cohort, and responses whose cohort could not be ' +
        'resolved (never part of the lift).',
    },
  ),
  favorable_rule: Type.Union([Type.Literal(RULE_WITH_KEYS), Type.Literal(RULE_FLAG_ONLY)], {
    description:
      `${RULE_WITH_KEYS}: the survey has a definition (PUT /api/sdk/surveys/{survey_id}), so a response is ` +
      'favourable when its `favorable` is true, or when it has no `favorable` and its answer is one of ' +
      `favorable_answers. ${RULE_FLAG_ONLY}: no definition, so only \`favorable: true\` counts; a response ` +
      'without the field counts as not favourable (responses_without_flag says how many).',
  }),
  favorable_answers: Type.Union([Type.Array(Type.String()), Type.Null()], {
    description: 'The definition’s favourable answer keys; null without a definition.',
  }),
  responses_without_flag: Type.Integer({
    minimum: 0,
    description: 'Responses of the range (every cohort) without a `favorable` field of their own.',
  }),
  lift: Type.Object(
    {
      absolute: Type.Union([Type.Number(), Type.Null()], {
        description:
          'Exposed favorable_rate − control favorable_rate, in proportion points (0.05 = 5 points), 4 decimals; ' +
          'null when either cohort has no responses.',
      }),
      ci: Interval(`${CI_METHOD} of the absolute lift; null when either cohort has no responses.`),
      relative: Type.Union([Type.Number(), Type.Null()], {
        description:
          'absolute / control favorable_rate (0.25 = 25% more favourable), 4 decimals; null when the control rate ' +
          'is 0 or a cohort has no responses.',
      }),
      p_value: Type.Union([Type.Number({ minimum: 0, maximum: 1 }), Type.Null()], {
        description: `Two-sided p-value of "no difference", ${TEST_METHOD}; 3 significant digits; null when either cohort has no responses.`,
      }),
    },
    { description: 'Exposed against control, over the responses of the range.' },
  ),
  sufficient: Type.Boolean({
    description: `False when either cohort has fewer than ${MIN_RESPONSES} responses: read the lift as indicative only.`,
  }),
  insufficient_reason: Type.Union([Type.String(), Type.Null()], {
    description: 'Why sufficient is false (the cohorts’ response counts); null when it is true.',
  }),
  answers: Type.Array(
    Type.Object({
      answer: Type.String({ description: 'The fixed-choice answer key as sent.' }),
      responses: Type.Integer({ minimum: 0, description: 'Responses with this answer (every cohort).' }),
      share: Type.Number({
        minimum: 0,
        maximum: 1,
        description: 'responses / the survey’s responses, 4 decimals.',
      }),
      exposed: Type.Integer({ minimum: 0, description: 'Of them, in the exposed cohort.' }),
      control: Type.Integer({ minimum: 0, description: 'Of them, in the control cohort.' }),
      unassigned: Type.Integer({ minimum: 0, description: 'Of them, without a cohort.' }),
    }),
    { description: 'The response distribution per answer key, most responses first (then answer).' },
  ),
});

export const BrandLiftView = viewResponse(
  'SdkBrandLift',
  {
    surveys: Type.Array(SurveyFigures, {
      description: `Surveys shown or answered in the range, by survey_id; at most ${SURVEY_LIST_LIMIT}.`,
    }),
    min_responses_per_cohort: Type.Literal(MIN_RESPONSES, {
      description: 'Responses each cohort needs for `sufficient`.',
    }),
    ci_method: Type.Literal(CI_METHOD, { description: 'How lift.ci is computed (95% confidence).' }),
    test_method: Type.Literal(TEST_METHOD, { description: 'How lift.p_value is computed.' }),
    cohort_rule: Type.String({
      description: 'How a response’s cohort is found (the same sentence in every response).',
    }),
  },
  'Brand lift per survey: favourable rates of exposed and control, absolute and relative lift with CI and p-value.',
);

export const COHORT_RULE =
  'A response’s own cohort; without one, the cohort of the same player’s latest brand_survey_shown of the same ' +
  'survey (same game and platform) at or before the response that names one, on any day. exposed and control in ' +
  'any case; anything else, or none, is unassigned.';

type Survey = Static<typeof SurveyFigures>;
type Cohort = Static<typeof CohortFigures>;

const interval = (i: { low: number; high: number } | null) =>
  i === null ? null : { low: round4(i.low), high: round4(i.high) };

function cohortFigures(shown: number, responses: number, favorable: number): Cohort {
  return {
    shown,
    responses,
    favorable,
    favorable_rate: responses > 0 ? round4(favorable / responses) : null,
    favorable_rate_ci: responses > 0 ? interval(wilson(favorable, responses)) : null,
  };
}

function lift(e: Cohort, c: Cohort): Survey['lift'] {
  if (e.responses === 0 || c.responses === 0)
    return { absolute: null, ci: null, relative: null, p_value: null };
  const pe = e.favorable / e.responses;
  const pc = c.favorable / c.responses;
  const p = twoProportionTest(e.favorable, e.responses, c.favorable, c.responses).p;
  return {
    absolute: round4(pe - pc),
    ci: interval(newcombeDifference(e.favorable, e.responses, c.favorable, c.responses)),
    relative: pc > 0 ? round4((pe - pc) / pc) : null,
    p_value: Number(p.toPrecision(3)),
  };
}

function insufficiency(e: Cohort, c: Cohort): string | null {
  if (e.responses >= MIN_RESPONSES && c.responses >= MIN_RESPONSES) return null;
  return (
    `exposed has ${e.responses} responses and control ${c.responses}; each cohort needs at least ` +
    `${MIN_RESPONSES} for the lift to be read`
  );
}

/** The view's surveys from the range's shown and response counts and the team's definitions. */
export function surveyFigures(
  shown: readonly ShownRow[],
  responses: readonly ResponseRow[],
  definitions: ReadonlyMap<string, readonly string[]>,
): Survey[] {
  const ids = [...new Set([...shown.map((s) => s.survey_id), ...responses.map((r) => r.survey_id)])].sort();
  return ids.slice(0, SURVEY_LIST_LIMIT).map((id) => {
    const keys = definitions.get(id) ?? null;
    const count = (cohort: CohortClass) => {
      let n = 0;
      let fav = 0;
      for (const r of responses) {
        if (r.survey_id !== id || r.cohort !== cohort) continue;
        n += r.responses;
        if (r.favorable === true || (r.favorable === null && keys?.includes(r.answer))) fav += r.responses;
      }
      const s = shown
        .filter((x) => x.survey_id === id && x.cohort === cohort)
        .reduce((a, x) => a + x.shown, 0);
      return cohortFigures(s, n, fav);
    };
    const cohorts = { exposed: count('exposed'), control: count('control'), unassigned: count('unassigned') };
    const mine = responses.filter((r) => r.survey_id === id);
    const total = mine.reduce((a, r) => a + r.responses, 0);
    const answers = new Map<
      string,
      { responses: number; exposed: number; control: number; unassigned: number }
    >();
    for (const r of mine) {
      const a = answers.get(r.answer) ?? { responses: 0, exposed: 0, control: 0, unassigned: 0 };
      a.responses += r.responses;
      a[r.cohort] += r.responses;
      answers.set(r.answer, a);
    }
    return {
      survey_id: id,
      cohorts,
      favorable_rule: keys === null ? RULE_FLAG_ONLY : RULE_WITH_KEYS,
      favorable_answers: keys === null ? null : [...keys],
      responses_without_flag: mine.filter((r) => r.favorable === null).reduce((a, r) => a + r.responses, 0),
      lift: lift(cohorts.exposed, cohorts.control),
      sufficient: insufficiency(cohorts.exposed, cohorts.control) === null,
      insufficient_reason: insufficiency(cohorts.exposed, cohorts.control),
      answers: [...answers]
        .map(([answer, a]) => ({ answer, ...a, share: round4(a.responses / total) }))
        .sort(
          (x, y) => y.responses - x.responses || (x.answer < y.answer ? -1 : x.answer > y.answer ? 1 : 0),
        ),
    };
  });
}

export const brandLift: View<typeof BrandLiftView> = {
  name: 'brand-lift',
  schema: BrandLiftView,
  summary: 'Brand lift per survey: favourable rate exposed vs control, lift with 95% CI, p-value, answers',
  async load(ctx) {
    const [shown, responses, definitions] = await Promise.all([
      surveyShown(ctx),
      surveyResponses(ctx),
      surveyDefinitions(ctx),
    ]);
    return {
      surveys: surveyFigures(shown, responses, definitions),
      min_responses_per_cohort: MIN_RESPONSES,
      ci_method: CI_METHOD,
      test_method: TEST_METHOD,
      cohort_rule: COHORT_RULE,
    };
  },
};
