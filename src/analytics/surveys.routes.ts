/**
 * PUT/GET/DELETE /api/sdk/surveys/{survey_id}?game_id=: a brand-lift survey's definition (the answer
 * keys that count as favourable). Signed-in users only (cookie + CSRF or bearer), their team's.
 */
import { Type } from 'typebox';
import { type App, errorResponses } from '../http/index.js';
import { reader } from './reader.js';
import {
  MAX_FAVORABLE_ANSWERS,
  PutSurveyBody,
  type SdkSurveyT,
  SurveyParams,
  SurveyQuery,
  surveySchemas,
} from './surveys.schemas.js';
import type { SurveysService } from './surveys.service.js';

const tags = ['sdk analytics'];
const config = { access: { auth: 'user' as const, team: 'content' as const } };

const PUT_DESCRIPTION = [
  'Sets (creates or replaces) which answer keys of the survey count as favourable in GET ' +
    '/api/sdk/analytics/{game_id}/brand-lift: a response is favourable when its `favorable` is true, or when it ' +
    'carries no `favorable` and its answer is one of favorable_answers. Without a definition only `favorable: true` ' +
    'counts.',
  `1 to ${MAX_FAVORABLE_ANSWERS} keys, each a fixed-choice key as ingest accepts it; a bad one → 422 ` +
    'validation_failed. The definition belongs to the caller’s team and holds for every platform of the game.',
].join('\n\n');

const caller = (request: Parameters<typeof reader>[0]) => reader(request).teamId;

export function registerSurveyRoutes(app: App, service: SurveysService): void {
  for (const schema of surveySchemas) app.addSchema(schema);
  const path = '/api/sdk/surveys/:survey_id';
  app.put(
    path,
    {
      config,
      schema: {
        tags,
        summary: 'Set the favourable answer keys of a brand-lift survey',
        description: PUT_DESCRIPTION,
        params: SurveyParams,
        querystring: SurveyQuery,
        body: PutSurveyBody,
        response: { 200: Type.Ref('SdkSurvey'), ...errorResponses(422) },
      },
    },
    async (request): Promise<SdkSurveyT> =>
      service.put(caller(request), request.query.game_id, request.params.survey_id, request.body),
  );
  app.get(
    path,
    {
      config,
      schema: {
        tags,
        summary: 'A brand-lift survey’s definition',
        description: 'No definition set by the caller’s team for this game and survey → 404 not_found.',
        params: SurveyParams,
        querystring: SurveyQuery,
        response: { 200: Type.Ref('SdkSurvey'), ...errorResponses(404, 422) },
      },
    },
    async (request): Promise<SdkSurveyT> =>
      service.get(caller(request), request.query.game_id, request.params.survey_id),
  );
  app.delete(
    path,
    {
      config,
      schema: {
        tags,
        summary: 'Delete a brand-lift survey’s definition',
        description:
          'brand-lift then counts only `favorable: true` responses as favourable. None set by the caller’s team → 404 ' +
          'not_found.',
        params: SurveyParams,
        querystring: SurveyQuery,
        response: { 204: Type.Null({ description: 'Deleted.' }), ...errorResponses(404, 422) },
      },
    },
    async (request, reply) => {
      await service.remove(caller(request), request.query.game_id, request.params.survey_id);
      return reply.code(204).send(null);
    },
  );
}
