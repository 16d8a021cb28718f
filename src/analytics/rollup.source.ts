/**
 * What every rollup's SQL shares (rollups.repo.ts runs it; views/*.rollup.repo.ts add their own).
 *
 * A rollup is kept by folding events into it: its `fold` statements read the events of one
 * (team, platform, game, UTC day) from the transaction's `sdk_fold` table (FOLDED) and merge them
 * into the rows already there (counts and sums added, first and last times widened, samples kept
 * when newer). The job fills sdk_fold with the batches ingest queued (each event once), or, to
 * rebuild a day whole, runs the `clear` statements and fills it with the day's raw events. One
 * set of statements serves both.
 *
 * Parameters: $1 team, $2 platform, $3 game, $4 day; $5 the virtual currency codes and $6 the
 * DevEx rate (USD per unit). A statement receives the parameters up to the highest it names.
 */

export interface RollupSql {
  /** Deletes the day's rows ($1..$4) of the tables a rebuild replaces. */
  readonly clear: readonly string[];
  /** Merges the day's events in sdk_fold into the rollups. */
  readonly fold: readonly string[];
  /** Used instead of `fold` when sdk_fold holds the whole day after `clear` (a rebuild). */
  readonly refold?: readonly string[];
  /** The tables written (their statistics are refreshed by the job). */
  readonly tables: readonly string[];
}

/** The day's rows of a rollup table keyed by (team_id, platform, game_id, day). */
export const DAY_KEY = 'team_id = $1 AND platform = $2 AND game_id = $3 AND day = $4';

/** The `clear` statements of tables keyed by day: each deletes the day's rows. */
export function clearDays(tables: readonly string[]): string[] {
  return tables.map((table) => `DELETE FROM ${table} WHERE ${DAY_KEY}`);
}

/** The day's events being folded: `SELECT ... ${FOLDED} [AND type = ...]`. */
export const FOLDED = 'FROM sdk_fold WHERE team_id = $1 AND platform = $2 AND game_id = $3 AND day = $4';

/** The key columns of an inserted row, from the parameters. */
export const ROW_KEY = '$1::bigint, $2::text, $3::text, $4::date';

/** The events of one fold: the columns of `events` a rollup reads, and the UTC day of `ts`. Dropped
 * at the end of the transaction. */
export const CREATE_FOLD_TABLE = `CREATE TEMP TABLE sdk_fold (
  team_id bigint NOT NULL,
  platform text NOT NULL,
  game_id text NOT NULL,
  day date NOT NULL,
  event_id text NOT NULL,
  ts timestamptz NOT NULL,
  player_id text NOT NULL,
  session_id text,
  type text NOT NULL,
  payload jsonb NOT NULL,
  country text
) ON COMMIT DROP`;

/** A purchase event's amount in its own currency, and that currency's code. */
export const AMOUNT = `(payload->>'price')::float8 * COALESCE((payload->>'quantity')::float8, 1)`;
export const CURRENCY = `upper(COALESCE(payload->>'currency', 'USD'))`;

/**
 * A "previous day" column of a rollup table keyed by day: for each row, the day of the row before
 * it in its entity's order (null for the entity's first). The rows of a day range whose column is
 * null or before the range are then exactly one per entity with a row in it, so a view counts
 * distinct players or sessions over any range in one scan, without hashing or sorting them. A
 * row's order is (day, then `tieBreak`): rows of one entity on one day (other platforms, other
 * groups) follow the first, their column that same day.
 *
 * A "next day" column (`next`) is instead the entity's first day after the row's day (null: none):
 * the entity's first row in a range with one before the range's end has rows on 2 or more days in
 * it.
 */
export interface PrevDay {
  readonly column: string;
  /** The columns naming the entity (besides team and game). */
  readonly entity: readonly string[];
  /** The rest of a row's order after its day. */
  readonly tieBreak?: readonly string[];
  /** A next-day column instead. */
  readonly next?: boolean;
}

/**
 * The two columns of one kind for an entity without its platform: `<prefix><kind>_day` on the row's
 * platform and `<prefix><kind>_any` across platforms (rows of one day then ordered by platform
 * first, then `tieBreak`: the first platform's row counts). Views read the one the
 * request needs (views/scope.repo.ts, eitherPlatform).
 */
export function onPlatformAndAny(
  kind: 'prev' | 'next',
  entity: readonly string[],
  tieBreak: readonly string[] = [],
  prefix = '',
): PrevDay[] {
  const next = kind === 'next';
  return [
    { column: `${prefix}${kind}_day`, entity: ['platform', ...entity], tieBreak, next },
    { column: `${prefix}${kind}_any`, entity, tieBreak: ['platform', ...tieBreak], next },
  ];
}

/**
 * The fold statement keeping `prevs` of `table` (key: its key columns besides team and game) for
 * the entities of the folded events: `folded` selects their (`touched`) columns. Only rows from the
 * folded day on can change a previous day (a row's predecessor is earlier in its order), any row a
 * next day; only the rows whose values changed are written.
 */
export function prevDaysSql(
  table: string,
  key: readonly string[],
  touched: readonly string[],
  folded: string,
  prevs: readonly PrevDay[],
): string {
  const values = prevs.map((p) =>
    p.next
      ? `min(day) OVER (PARTITION BY ${p.entity.join(', ')} ORDER BY day
           RANGE BETWEEN '1 day'::interval FOLLOWING AND UNBOUNDED FOLLOWING) AS ${p.column}`
      : `lag(day) OVER (PARTITION BY ${p.entity.join(', ')} ORDER BY ${['day', ...(p.tieBreak ?? [])].join(', ')}) AS ${p.column}`,
  );
  const cols = prevs.map((p) => p.column);
  const fromDay = prevs.some((p) => p.next) ? '' : '\n     AND w.day >= $4::date';
  // Per folded entity, its rows read off an index (LATERAL): a join of every entity at once let the
  // planner scan all of the table's rows on the platform for a fold of a few hundred.
  return `UPDATE ${table} AS t SET ${cols.map((c) => `${c} = w.${c}`).join(', ')}
    FROM (SELECT DISTINCT * FROM (${folded}) AS f0 (${touched.join(', ')})) AS f
    CROSS JOIN LATERAL (
      SELECT ${key.join(', ')}, ${values.join(', ')}
        FROM ${table} AS x WHERE x.team_id = $1 AND x.game_id = $3 AND ${touched.map((c) => `x.${c} = f.${c}`).join(' AND ')}
    ) AS w
   WHERE t.team_id = $1 AND t.game_id = $3 AND ${key.map((k) => `t.${k} = w.${k}`).join(' AND ')}${fromDay}
     AND ROW(${cols.map((c) => `t.${c}`).join(', ')}) IS DISTINCT FROM ROW(${cols.map((c) => `w.${c}`).join(', ')})`;
}
