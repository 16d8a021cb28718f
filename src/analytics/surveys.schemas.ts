/**
 * Survey definitions' API shapes: which answer keys of a brand-lift survey count as favourable when
 * a response does not say so itself (brand_survey_response.favorable absent). Keyed by the team,
 * the game and the survey_id the runtime sends.
 */
import { type Static, Type } from 'typebox';
import { ANSWER_KEY_PATTERN } from '../ingest/index.js';

/** The most answer keys a definition may list. */
export const MAX_FAVORABLE_ANSWERS = 64;

export const SurveyParams = Type.Object({
  survey_id: Type.String({
    minLength: 1,
    maxLength: 64,
    description: 'The survey_id the brand_survey_shown and brand_survey_response events carry.',
  }),
});
export type SurveyParamsT = Static<typeof SurveyParams>;

export const SurveyQuery = Type.Object({
  game_id: Type.String({
    minLength: 1,
    maxLength: 64,
    description: 'The platform-native game id the survey runs in (a definition holds for every platform).',
  }),
});
export type SurveyQueryT = Static<typeof SurveyQuery>;

const AnswerKey = Type.String({
  minLength: 1,
  maxLength: 64,
  pattern: ANSWER_KEY_PATTERN,
  description: 'An answer key, as brand_survey_response.answer sends it (case-sensitive).',
});

export const PutSurveyBody = Type.Object(
  {
    favorable_answers: Type.Array(AnswerKey, {
      minItems: 1,
      maxItems: MAX_FAVORABLE_ANSWERS,
      description:
        'The answer keys that count as favourable when a response carries no `favorable` field of its own ' +
        '(a response that says favorable true or false is taken at its word). Duplicates are kept once.',
    }),
  },
  { additionalProperties: false },
);
export type PutSurveyBodyT = Static<typeof PutSurveyBody>;

export const SdkSurvey = Type.Object(
  {
    game_id: Type.String({ description: 'The game the definition holds for (every platform).' }),
    survey_id: Type.String({ description: 'The survey_id its events carry.' }),
    favorable_answers: Type.Array(Type.String(), { description: 'Sorted, each once.' }),
    updated_at: Type.String({ format: 'date-time', description: 'When the definition was last set.' }),
  },
  { $id: 'SdkSurvey', title: 'SdkSurvey', additionalProperties: false },
);
export type SdkSurveyT = Static<typeof SdkSurvey>;

/** Registered with app.addSchema before the routes that refer to them. */
export const surveySchemas = [SdkSurvey];
