/**
 * What a view is: a response schema (the header fields and its own) and a loader that reads its
 * rollups for one game, range and player filter. Each view is one file in this folder (its SQL in
 * the matching .repo.ts); views/index.ts lists them, and the routes register one GET per view.
 */
import type { Static, TObject } from 'typebox';
import type { Queryable } from '../../db/index.js';
import type { ViewHeader } from '../analytics.schemas.js';
import type { DayRange } from '../range.js';

/** One request's reading frame, resolved by the service (game, plan clamp, segment). */
export interface ViewContext {
  /** The database, or the transaction the rollup job derives day stats in. */
  db: Queryable;
  teamId: number;
  gameId: string;
  /** null: every platform of the game combined. */
  platform: string | null;
  range: DayRange;
  granularity: 'day' | 'week';
  /** The segment's players over the range; null: no segment filter. */
  players: readonly string[] | null;
  /** The request's time (for "today"-relative figures). */
  now: Date;
}

export interface View<S extends TObject = TObject> {
  /** The path segment: GET /api/sdk/analytics/{game_id}/{name}. */
  name: string;
  schema: S;
  summary: string;
  /** The view's own fields (the header is added by the service). */
  load(ctx: ViewContext): Promise<Omit<Static<S>, keyof ViewHeader>>;
}
