import type { Static } from 'typebox';
import type { GameSummary as GameSummarySchema } from './market.schemas.js';

/** The fields every game summary carries (trending, radar, overview, search): interface §2. */
export type GameSummary = Static<typeof GameSummarySchema>;
