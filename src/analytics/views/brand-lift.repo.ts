/**
 * SQL of the brand-lift view, over the per-event survey rollups of migration 0026 and the team's
 * survey definitions. A response's cohort is its own `cohort`, else that of the same player's latest
 * brand_survey_shown of the same survey (same game and platform) at or before the response that
 * names a cohort, on any day (a shown before the range still assigns it); resolved here, at read
 * time, so a shown that arrives late for an earlier day counts. Cohorts other than exposed and
 * control (any case), or none, are `unassigned`.
 */
import { num, scopeParams, scopeSql } from './scope.repo.js';
import type { ViewContext } from './view.js';

export type CohortClass = 'exposed' | 'control' | 'unassigned';

/** The most surveys a response lists. */
export const SURVEY_LIST_LIMIT = 100;

const CLASS = (cohort: string) =>
  `CASE lower(${cohort}) WHEN 'exposed' THEN 'exposed' WHEN 'control' THEN 'control' ELSE 'unassigned' END`;

function params(ctx: ViewContext): unknown[] {
  return [...scopeParams(ctx), ctx.range.from, ctx.range.to];
}

export interface ShownRow {
  survey_id: string;
  cohort: CohortClass;
  shown: number;
}

/** brand_survey_shown events of the range per survey and cohort (their own field). */
export async function surveyShown(ctx: ViewContext): Promise<ShownRow[]> {
  const r = await ctx.db.query<ShownRow>(
    `SELECT survey_id, ${CLASS('cohort')} AS cohort, count(*)::int AS shown
       FROM sdk_brand_survey_shown WHERE ${scopeSql()} AND day BETWEEN $5 AND $6
      GROUP BY 1, 2`,
    params(ctx),
  );
  return r.rows.map((row) => ({ ...row, shown: num(row.shown) }));
}

export interface ResponseRow {
  survey_id: string;
  answer: string;
  /** null: the response did not say. */
  favorable: boolean | null;
  cohort: CohortClass;
  responses: number;
}

/** brand_survey_response events of the range per survey, answer, favorable flag and cohort. */
export async function surveyResponses(ctx: ViewContext): Promise<ResponseRow[]> {
  const r = await ctx.db.query<ResponseRow>(
    `SELECT r.survey_id, r.answer, r.favorable,
            ${CLASS(`COALESCE(r.cohort, (
              SELECT s.cohort FROM sdk_brand_survey_shown s
               WHERE s.team_id = r.team_id AND s.game_id = r.game_id AND s.platform = r.platform
                 AND s.player_id = r.player_id AND s.survey_id = r.survey_id AND s.ts <= r.ts
                 AND s.cohort IS NOT NULL
               ORDER BY s.ts DESC, s.cohort LIMIT 1))`)} AS cohort,
            count(*)::int AS responses
       FROM sdk_brand_survey_responses r WHERE ${scopeSql('r')} AND r.day BETWEEN $5 AND $6
      GROUP BY 1, 2, 3, 4`,
    params(ctx),
  );
  return r.rows.map((row) => ({ ...row, responses: num(row.responses) }));
}

/** The team's favourable answer keys of the game's surveys, by survey_id. */
export async function surveyDefinitions(ctx: ViewContext): Promise<Map<string, string[]>> {
  const r = await ctx.db.query<{ survey_id: string; favorable_answers: string[] }>(
    'SELECT survey_id, favorable_answers FROM sdk_brand_surveys WHERE team_id = $1 AND game_id = $2',
    [ctx.teamId, ctx.gameId],
  );
  return new Map(r.rows.map((row) => [row.survey_id, row.favorable_answers]));
}
