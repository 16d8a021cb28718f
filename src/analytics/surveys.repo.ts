/** SQL of survey definitions (sdk_brand_surveys, migration 0026): one row per team, game and survey. */
import type { Queryable } from '../db/index.js';

export interface SurveyRow {
  game_id: string;
  survey_id: string;
  favorable_answers: string[];
  updated_at: Date;
}

const COLUMNS = 'game_id, survey_id, favorable_answers, updated_at';

/** Sets the definition (created or replaced). */
export async function upsertSurvey(
  q: Queryable,
  s: { teamId: number; gameId: string; surveyId: string; favorableAnswers: readonly string[]; now: Date },
): Promise<SurveyRow> {
  const r = await q.query<SurveyRow>(
    `INSERT INTO sdk_brand_surveys (team_id, game_id, survey_id, favorable_answers, updated_at)
     VALUES ($1, $2, $3, $4::text[], $5)
     ON CONFLICT (team_id, game_id, survey_id) DO UPDATE
       SET favorable_answers = EXCLUDED.favorable_answers, updated_at = EXCLUDED.updated_at
     RETURNING ${COLUMNS}`,
    [s.teamId, s.gameId, s.surveyId, s.favorableAnswers, s.now],
  );
  return r.rows[0]!;
}

/** The team's definition of one survey of one game; null when none was set. */
export async function findSurvey(
  q: Queryable,
  teamId: number,
  gameId: string,
  surveyId: string,
): Promise<SurveyRow | null> {
  const r = await q.query<SurveyRow>(
    `SELECT ${COLUMNS} FROM sdk_brand_surveys WHERE team_id = $1 AND game_id = $2 AND survey_id = $3`,
    [teamId, gameId, surveyId],
  );
  return r.rows[0] ?? null;
}

/** Deletes the definition; false when there was none. */
export async function deleteSurvey(
  q: Queryable,
  teamId: number,
  gameId: string,
  surveyId: string,
): Promise<boolean> {
  const r = await q.query(
    'DELETE FROM sdk_brand_surveys WHERE team_id = $1 AND game_id = $2 AND survey_id = $3',
    [teamId, gameId, surveyId],
  );
  return r.rowCount > 0;
}
