/**
 * Survey definitions: the answer keys a team marks favourable for one brand-lift survey of one game
 * (the brand-lift view reads them, views/brand-lift.repo.ts). Team-scoped like segments: another
 * team's definition answers 404, as if it did not exist. A definition may be set before the
 * survey's first event arrives.
 */
import type { Clock } from '../clock.js';
import type { Db } from '../db/index.js';
import { errors } from '../errors.js';
import * as repo from './surveys.repo.js';
import type { PutSurveyBodyT, SdkSurveyT } from './surveys.schemas.js';

export interface SurveysDeps {
  db: Db;
  clock: Clock;
}

function survey(row: repo.SurveyRow): SdkSurveyT {
  return {
    game_id: row.game_id,
    survey_id: row.survey_id,
    favorable_answers: row.favorable_answers,
    updated_at: row.updated_at.toISOString(),
  };
}

const notFound = () => errors.notFound('No definition for this survey.');

export class SurveysService {
  constructor(private readonly deps: SurveysDeps) {}

  async put(teamId: number, gameId: string, surveyId: string, body: PutSurveyBodyT): Promise<SdkSurveyT> {
    const keys = [...new Set(body.favorable_answers)].sort();
    const row = await repo.upsertSurvey(this.deps.db, {
      teamId,
      gameId,
      surveyId,
      favorableAnswers: keys,
      now: this.deps.clock.now(),
    });
    return survey(row);
  }

  async get(teamId: number, gameId: string, surveyId: string): Promise<SdkSurveyT> {
    const row = await repo.findSurvey(this.deps.db, teamId, gameId, surveyId);
    if (!row) throw notFound();
    return survey(row);
  }

  async remove(teamId: number, gameId: string, surveyId: string): Promise<void> {
    if (!(await repo.deleteSurvey(this.deps.db, teamId, gameId, surveyId))) throw notFound();
  }
}
