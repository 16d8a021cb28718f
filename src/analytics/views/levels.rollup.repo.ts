/**
 * Rollups the levels view keeps for itself, rebuilt with every day (rollups.repo.ts REBUILD_ALL;
 * parameters: $1 team, $2 platform, $3 game, $4 day, $5..$6 the day's start and end, $7 event types,
 * $8 virtual currency codes, $9 USD per Robux).
 */

/** Statements run, in order, after the core rebuild of a day. */
export const LEVEL_REBUILD: readonly string[] = [];

/** Tables of its own to ANALYZE after large rebuilds. */
export const LEVEL_TABLES: readonly string[] = [];
