/**
 * Pure mappings from API responses to what the charts draw, kept apart from the chart library so
 * they are tested in plain Node (web/src/lib/chart-data.test.ts).
 */

/** An SVG path through `values` scaled into width × height (y grows downwards); '' when < 2 points. */
export function sparklinePath(values: number[], width: number, height: number, pad = 2): string {
  const finite = values.filter((v) => Number.isFinite(v));
  if (finite.length < 2) return '';
  const min = Math.min(...finite);
  const max = Math.max(...finite);
  const span = max - min || 1;
  const step = (width - pad * 2) / (finite.length - 1);
  return finite
    .map((v, i) => {
      const x = pad + i * step;
      const y = max === min ? height / 2 : pad + (1 - (v - min) / span) * (height - pad * 2);
      return `${i === 0 ? 'M' : 'L'}${x.toFixed(1)},${y.toFixed(1)}`;
    })
    .join(' ');
}

export interface ForecastPoint {
  date: string;
  predicted_ccu: number;
  lower_bound?: number | null;
  upper_bound?: number | null;
}

export interface ForecastSeries {
  /** Days of the forecast, YYYY-MM-DD. */
  days: string[];
  predicted: number[];
  /** The band as ECharts stacks it: the lower bound, then the band's height above it; null without bounds. */
  band: { lower: number[]; height: number[] } | null;
}

/** The forecast line and, when every point has bounds, its 80% band (lower + (upper − lower) stacked). */
export function forecastSeries(points: ForecastPoint[]): ForecastSeries {
  const days = points.map((p) => p.date);
  const predicted = points.map((p) => p.predicted_ccu);
  const bounded = points.length > 0 && points.every((p) => p.lower_bound != null && p.upper_bound != null);
  return {
    days,
    predicted,
    band: bounded
      ? {
          lower: points.map((p) => p.lower_bound as number),
          height: points.map((p) => Math.max(0, (p.upper_bound as number) - (p.lower_bound as number))),
        }
      : null,
  };
}

/**
 * CCU history samples (oldest first, evenly spaced up to `now`) as [time, ccu] pairs; `daily`
 * averages them per UTC day, as the chart's daily zoom shows.
 */
export function ccuPoints(
  history: number[],
  now: Date,
  stepMinutes: number,
  zoom: 'hourly' | 'daily',
): [number, number][] {
  const end = now.getTime();
  const points: [number, number][] = history.map((ccu, i) => [
    end - (history.length - 1 - i) * stepMinutes * 60_000,
    ccu,
  ]);
  if (zoom === 'hourly') return points;
  const days = new Map<number, { sum: number; n: number }>();
  for (const [t, ccu] of points) {
    const day = Math.floor(t / 86_400_000) * 86_400_000;
    const agg = days.get(day) ?? { sum: 0, n: 0 };
    agg.sum += ccu;
    agg.n += 1;
    days.set(day, agg);
  }
  return [...days.entries()].sort((a, b) => a[0] - b[0]).map(([day, a]) => [day, Math.round(a.sum / a.n)]);
}

export interface GenreBubble {
  name: string;
  display_name: string;
  saturation_index: number;
  growth_rate: number | null;
  demand_per_game: number;
  entry_verdict: string;
}

export const VERDICT_COLOURS: Record<string, string> = {
  strong: '#16a34a',
  enter_with_edge: '#d97706',
  avoid: '#dc2626',
  unproven: '#6b7280',
};

/**
 * The genre heatmap's bubbles: x = saturation, y = growth (null growth sits on 0 and is marked),
 * size = demand per game on a square-root scale between 8 and 48 px, colour = verdict.
 */
export function genreBubbles(genres: GenreBubble[]) {
  const maxDemand = Math.max(1, ...genres.map((g) => g.demand_per_game));
  return genres.map((g) => ({
    name: g.display_name,
    value: [g.saturation_index, g.growth_rate ?? 0, g.demand_per_game] as [number, number, number],
    symbolSize: 8 + 40 * Math.sqrt(Math.max(0, g.demand_per_game) / maxDemand),
    itemStyle: { color: VERDICT_COLOURS[g.entry_verdict] ?? VERDICT_COLOURS.unproven },
    verdict: g.entry_verdict,
    growthKnown: g.growth_rate != null,
  }));
}

/** Retention cohorts as heatmap cells [dayIndex, cohortIndex, percent]; missing days are skipped. */
export function retentionCells(
  cohorts: { cohort: string; days: (number | null)[] }[],
): [number, number, number][] {
  const cells: [number, number, number][] = [];
  cohorts.forEach((c, y) => {
    c.days.forEach((v, x) => {
      if (v != null && Number.isFinite(v)) cells.push([x, y, Math.round(v * 1000) / 10]);
    });
  });
  return cells;
}
