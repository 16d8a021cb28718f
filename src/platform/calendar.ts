/**
 * Roblox's seasonal calendar: school breaks, holidays and platform events that move play time.
 * It is the simulated market's ground truth for seasonal effects and the documented prior that
 * genre timing uses until a year of stored history exists. Dates are month/day, every year, UTC.
 */

export interface SeasonalWindow {
  key: string;
  /** What users see, e.g. "Summer break". */
  event: string;
  start: { month: number; day: number };
  end: { month: number; day: number };
  /** Platform-wide CCU multiplier at full strength (1.15 = +15%). */
  uplift: number;
  /** Extra multipliers for genres this window favours (or hurts). */
  genreUplift: Readonly<Record<string, number>>;
}

export const SEASONAL_WINDOWS: readonly SeasonalWindow[] = [
  {
    key: 'winter_holidays',
    event: 'Winter holidays',
    start: { month: 12, day: 20 },
    end: { month: 1, day: 5 },
    uplift: 1.25,
    genreUplift: { roleplay_avatar_sim: 1.1, social: 1.1, party_casual: 1.1 },
  },
  {
    key: 'spring_break',
    event: 'Spring break',
    start: { month: 3, day: 15 },
    end: { month: 4, day: 10 },
    uplift: 1.08,
    genreUplift: { adventure: 1.08, obby_platformer: 1.05 },
  },
  {
    key: 'summer_break',
    event: 'Summer break',
    start: { month: 6, day: 15 },
    end: { month: 8, day: 31 },
    uplift: 1.15,
    genreUplift: { simulation: 1.08, obby_platformer: 1.1, sports_racing: 1.05 },
  },
  {
    key: 'back_to_school',
    event: 'Back to school',
    start: { month: 9, day: 1 },
    end: { month: 9, day: 15 },
    uplift: 0.9,
    genreUplift: { education: 1.2 },
  },
  {
    key: 'halloween',
    event: 'Halloween',
    start: { month: 10, day: 20 },
    end: { month: 11, day: 1 },
    uplift: 1.05,
    genreUplift: { survival: 1.3, adventure: 1.1, shooter: 1.05 },
  },
];

const DAY_MS = 86_400_000;
/** Days over which a window fades in and out. */
const EDGE_DAYS = 3;

function windowRange(w: SeasonalWindow, year: number): [number, number] {
  const start = Date.UTC(year, w.start.month - 1, w.start.day);
  const endYear = w.end.month < w.start.month ? year + 1 : year;
  return [start, Date.UTC(endYear, w.end.month - 1, w.end.day) + DAY_MS];
}

/** 0..1: how much of `w` is in force at `t` (ramps over EDGE_DAYS at both ends). */
export function windowStrength(w: SeasonalWindow, t: number): number {
  const year = new Date(t).getUTCFullYear();
  let best = 0;
  for (const y of [year - 1, year]) {
    const [start, end] = windowRange(w, y);
    if (t < start - EDGE_DAYS * DAY_MS || t > end + EDGE_DAYS * DAY_MS) continue;
    const fadeIn = Math.min(1, Math.max(0, (t - (start - EDGE_DAYS * DAY_MS)) / (2 * EDGE_DAYS * DAY_MS)));
    const fadeOut = Math.min(1, Math.max(0, (end + EDGE_DAYS * DAY_MS - t) / (2 * EDGE_DAYS * DAY_MS)));
    best = Math.max(best, Math.min(fadeIn, fadeOut));
  }
  return best;
}

const cache = new Map<string, number>();

/** The seasonal CCU multiplier for a genre at time `t` (ms); resolved to the hour and memoised. */
export function seasonalMultiplier(genre: string, t: number): number {
  const hour = Math.floor(t / 3_600_000);
  const key = `${genre}|${hour}`;
  const hit = cache.get(key);
  if (hit !== undefined) return hit;
  if (cache.size > 200_000) cache.clear();
  const m = computeSeasonal(genre, hour * 3_600_000 + 1_800_000);
  cache.set(key, m);
  return m;
}

function computeSeasonal(genre: string, t: number): number {
  let m = 1;
  for (const w of SEASONAL_WINDOWS) {
    const s = windowStrength(w, t);
    if (s === 0) continue;
    const full = w.uplift * (w.genreUplift[genre] ?? 1);
    m *= 1 + (full - 1) * s;
  }
  return m;
}
