/**
 * retention: of the players first seen on each day of the range, the share that came back on day
 * N (classic) and on day N or later (rolling), N = 1..30, and both weighted over the cohorts at
 * days 1, 7 and 30. Exact (distinct players from the rollups); a day not reached yet is null.
 */
import { type Static, Type } from 'typebox';
import { viewResponse } from '../analytics.schemas.js';
import { addDays, dayOf, eachDay } from '../range.js';
import { type CohortCountRow, cohortCounts } from './activity.repo.js';
import { round4 } from './figures.js';
import type { View } from './view.js';

/** Day N of retention runs from 1 to DAYS. */
const DAYS = 30;
const Share = Type.Union([Type.Number(), Type.Null()]);

const Shares = (description: string) => Type.Array(Share, { minItems: DAYS, maxItems: DAYS, description });

const Summary = (description: string) => Type.Object({ d1: Share, d7: Share, d30: Share }, { description });

export const RetentionView = viewResponse(
  'SdkRetention',
  {
    cohorts: Type.Array(
      Type.Object({
        date: Type.String({ format: 'date', description: 'The cohort: players first seen this UTC day.' }),
        size: Type.Integer({
          description:
            'Players first seen that day: on any platform of the game (their earliest), or on the filtered platform; in the segment, with one.',
        }),
        classic: Shares(
          'Element N−1: the share of the cohort active on exactly day N after its first day (N = 1..30), 4 decimals; ' +
            'null when that day is after today (not observed yet) or the cohort is empty.',
        ),
        rolling: Shares(
          'Element N−1: the share of the cohort active on day N or any later day observed up to today, 4 decimals; ' +
            'null as for classic.',
        ),
      }),
      { description: 'One cohort per day of the range, oldest first (granularity does not apply).' },
    ),
    summary: Type.Object(
      {
        classic: Summary('Classic retention at days 1, 7 and 30, weighted by cohort size.'),
        rolling: Summary('Rolling retention at days 1, 7 and 30, weighted by cohort size.'),
      },
      {
        description:
          'Over the cohorts for which that day is already observed: players retained / players in those cohorts; null when none is.',
      },
    ),
  },
  'Classic and rolling day-1..30 retention of the players first seen on each day of the range.',
);

type Cohort = Static<typeof RetentionView>['cohorts'][number];

interface CohortCounts {
  size: number;
  /** active[N]: active on exactly day N; lasts[N]: last active day is day N (30: day 30 or later). */
  active: number[];
  lasts: number[];
}

const noCounts = (): CohortCounts => ({
  size: 0,
  active: new Array<number>(DAYS + 1).fill(0),
  lasts: new Array<number>(DAYS + 1).fill(0),
});

/** The cohorts' counts (activity.repo.ts), indexed by day N (index 0 unused). */
function countsByCohort(rows: readonly CohortCountRow[]): Map<string, CohortCounts> {
  return new Map(
    rows.map((r) => [r.cohort, { size: r.size, active: [0, ...r.active], lasts: [0, ...r.lasts] }]),
  );
}

/** rolling[N]: players whose last active day is day N or later. */
function rollingCounts(lasts: readonly number[]): number[] {
  const out = new Array<number>(DAYS + 2).fill(0);
  for (let n = DAYS; n >= 1; n -= 1) out[n] = out[n + 1]! + lasts[n]!;
  return out;
}

/** Cohorts and the weighted summary from the grouped counts; `today` bounds what is observed. */
export function retentionOf(rows: readonly CohortCountRow[], from: string, to: string, today: string) {
  const counts = countsByCohort(rows);
  const weighted = { classic: [0, 0, 0], rolling: [0, 0, 0], size: [0, 0, 0] };
  const marks = [1, 7, 30];
  const days = Array.from({ length: DAYS }, (_, i) => i + 1);
  const cohorts: Cohort[] = eachDay(from, to).map((date) => {
    const c = counts.get(date) ?? noCounts();
    const rolling = rollingCounts(c.lasts);
    const observed = (n: number) => addDays(date, n) <= today;
    const share = (k: number, n: number) => (observed(n) && c.size > 0 ? round4(k / c.size) : null);
    marks.forEach((n, i) => {
      if (!observed(n)) return;
      weighted.size[i]! += c.size;
      weighted.classic[i]! += c.active[n]!;
      weighted.rolling[i]! += rolling[n]!;
    });
    return {
      date,
      size: c.size,
      classic: days.map((n) => share(c.active[n]!, n)),
      rolling: days.map((n) => share(rolling[n]!, n)),
    };
  });
  const summary = (k: number[]) => {
    const at = (i: number) => (weighted.size[i]! > 0 ? round4(k[i]! / weighted.size[i]!) : null);
    return { d1: at(0), d7: at(1), d30: at(2) };
  };
  return { cohorts, summary: { classic: summary(weighted.classic), rolling: summary(weighted.rolling) } };
}

export const retention: View<typeof RetentionView> = {
  name: 'retention',
  schema: RetentionView,
  summary: 'Day-1..30 classic and rolling retention per daily cohort, and weighted day 1, 7 and 30',
  async load(ctx) {
    const today = dayOf(ctx.now);
    const rows = await cohortCounts(ctx, today);
    return retentionOf(rows, ctx.range.from, ctx.range.to, today);
  },
};
