/**
 * /api/sdk/experiments: a team's experiments (create, list, read, stop, delete, results) for
 * signed-in members (cookie + CSRF or bearer), and GET /api/sdk/experiments/{key}/assignment, which
 * game servers call with the game's SDK key (X-API-Key, scope sdk:ingest) as well as a session.
 */
import { Type } from 'typebox';
import { type App, allowCrossOrigin, errorResponses, requireUser } from '../http/index.js';
import type { Principal } from '../identity.js';
import {
  AssignmentParams,
  AssignmentQuery,
  CreateExperimentBody,
  ExperimentIdParams,
  experimentSchemas,
  MAX_EXPERIMENTS_PER_TEAM,
  type SdkAssignmentT,
  type SdkExperimentResultsT,
  type SdkExperimentsT,
  type SdkExperimentT,
  StopExperimentBody,
} from './experiments.schemas.js';
import type { ExperimentsService } from './experiments.service.js';
import { reader } from './reader.js';
import { EXPOSURE_EVENT } from './views/experiments.rollup.repo.js';

const tags = ['sdk experiments'];
const config = { access: { auth: 'user' as const, team: 'content' as const } };

const CREATE_DESCRIPTION = [
  'Defines an experiment on one of the team’s games (a game with no SDK events → 404 not_found): 2 to 5 variants ' +
    'with integer weights, the first the control; a primary metric and up to 5 secondary ones; optionally the ' +
    'minimum detectable effect (absolute, in the primary metric’s unit) and a baseline, from which the planned ' +
    'sample size per variant is computed (two-sided, alpha 0.05 shared among the treatments by Bonferroni, power 0.8).',
  `Exposure contract: when the game shows a player a variant it sends a custom event named ${EXPOSURE_EVENT} with ` +
    'the fields experiment (the key) and variant (the variant key). The first exposure starts the player’s ' +
    'observation; a player exposed to two variants is contaminated and left out of the results (counted).',
  `Duplicate key on the game → 409 experiment_exists; at most ${MAX_EXPERIMENTS_PER_TEAM} experiments per team → 409 ` +
    'limit_reached; duplicate variant keys, event_name without metric custom (or missing with it), a metric listed ' +
    'twice, a rate baseline outside (0, 1) → 422 validation_failed naming the field.',
].join('\n\n');

const RESULTS_DESCRIPTION = [
  'Per variant: players exposed (to that variant alone), and for each metric its value with a 95% CI and the ' +
    'difference to the control with a 95% CI and a two-sided p-value. Rates (retention, conversion, custom): ' +
    'Wilson score interval, Newcombe hybrid score interval of the difference, pooled two-proportion z-test. Revenue ' +
    "per player (USD): Student's t interval, Welch's t interval of the difference and Welch's t-test.",
  'A sample-ratio-mismatch test (Pearson chi-square of the players analysed per variant against the weights; ' +
    'flagged at p < 0.001), the planned sample size from the minimum detectable effect and the progress towards ' +
    'it, and a verdict that names no winner before that size is reached.',
  'Exposures are read from start_day (or the plan’s history limit when later: history_limited_from) until the stop. ' +
    'Figures come from the rollups, within seconds of the raw events.',
].join('\n\n');

/** The team a caller reads for: a member's, or the SDK key's. */
function teamOf(principal: Principal): number {
  if (principal.kind === 'api_key') return principal.teamId;
  return requireUser(principal).teamId;
}

export function registerExperimentRoutes(app: App, service: ExperimentsService): void {
  for (const schema of experimentSchemas) app.addSchema(schema);
  const caller = (request: Parameters<typeof reader>[0]) => reader(request).teamId;
  app.post(
    '/api/sdk/experiments',
    {
      config,
      schema: {
        tags,
        summary: 'Create an experiment (A/B test) on a game',
        description: CREATE_DESCRIPTION,
        body: CreateExperimentBody,
        response: { 201: Type.Ref('SdkExperiment'), ...errorResponses(404, 409, 422) },
      },
    },
    async (request, reply) => {
      const created: SdkExperimentT = await service.create(caller(request), request.body);
      return reply.code(201).send(created);
    },
  );
  app.get(
    '/api/sdk/experiments',
    {
      config,
      schema: {
        tags,
        summary: "The team's experiments, newest first",
        response: { 200: Type.Ref('SdkExperiments') },
      },
    },
    async (request): Promise<SdkExperimentsT> => service.list(caller(request)),
  );
  app.get(
    '/api/sdk/experiments/:id',
    {
      config,
      schema: {
        tags,
        summary: 'An experiment',
        description: "Another team's experiment → 404 not_found.",
        params: ExperimentIdParams,
        response: { 200: Type.Ref('SdkExperiment'), ...errorResponses(404, 422) },
      },
    },
    async (request): Promise<SdkExperimentT> => service.get(caller(request), request.params.id),
  );
  app.patch(
    '/api/sdk/experiments/:id',
    {
      config,
      schema: {
        tags,
        summary: 'Stop an experiment',
        description:
          'Body {"status": "stopped"}. Idempotent: a stopped experiment keeps its first stop time. From then on ' +
          'exposures are not analysed and assignment answers the control. Another team’s experiment → 404.',
        params: ExperimentIdParams,
        body: StopExperimentBody,
        response: { 200: Type.Ref('SdkExperiment'), ...errorResponses(404, 422) },
      },
    },
    async (request): Promise<SdkExperimentT> => service.stop(caller(request), request.params.id),
  );
  app.delete(
    '/api/sdk/experiments/:id',
    {
      config,
      schema: {
        tags,
        summary: 'Delete an experiment',
        description: 'Its exposures stay in the raw events. Another team’s experiment → 404 not_found.',
        params: ExperimentIdParams,
        response: { 204: Type.Null({ description: 'Deleted.' }), ...errorResponses(404, 422) },
      },
    },
    async (request, reply) => {
      await service.remove(caller(request), request.params.id);
      return reply.code(204).send(null);
    },
  );
  app.get(
    '/api/sdk/experiments/:id/results',
    {
      config,
      schema: {
        tags,
        summary: "An experiment's results per variant",
        description: RESULTS_DESCRIPTION,
        params: ExperimentIdParams,
        response: { 200: Type.Ref('SdkExperimentResults'), ...errorResponses(404, 422) },
      },
    },
    async (request): Promise<SdkExperimentResultsT> => service.results(reader(request), request.params.id),
  );
  // Browser games ask from their own origin with the SDK key (X-API-Key); cookies are never sent.
  allowCrossOrigin(app, '/api/sdk/experiments/:key/assignment', ['GET'], AssignmentParams);
  app.get(
    '/api/sdk/experiments/:key/assignment',
    {
      config: { access: { auth: 'sdk' as const, team: 'content' as const } },
      schema: {
        tags,
        summary: 'The variant a player gets',
        description:
          'Deterministic (a hash of the experiment key and the player id into the weights; see the variant field), ' +
          'so every server and restart answers the same; nothing is stored. Game servers call it with the game’s ' +
          'SDK key; a key reads only its own team’s experiments (another team’s → 404 not_found).',
        params: AssignmentParams,
        querystring: AssignmentQuery,
        response: { 200: Type.Ref('SdkAssignment'), ...errorResponses(404, 422) },
      },
    },
    async (request): Promise<SdkAssignmentT> =>
      service.assignment(
        teamOf(request.principal),
        request.params.key,
        request.query.game_id,
        request.query.player_id,
      ),
  );
}
