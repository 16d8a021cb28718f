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

/** A cohort as GET /api/sdk/analytics/{game_id}/retention answers it. */
export interface RetentionCohortLike {
  date: string;
  size: number;
  /** Element N−1: share active on exactly day N (N = 1..30); null when not observed yet or empty. */
  classic: (number | null)[];
  /** Element N−1: share active on day N or any later day observed. */
  rolling: (number | null)[];
}

export interface RetentionHeatmap {
  /** The rows drawn, oldest cohort first: cohorts with at least one player. */
  rows: { date: string; size: number }[];
  /** Day labels of the x axis: "D1" up to the last day any cohort has reached (at most "D30"). */
  days: string[];
  /** [dayIndex (day N − 1), rowIndex, percent with one decimal]; days not observed yet are left out. */
  cells: [number, number, number][];
}

/**
 * The retention heatmap: one row per non-empty cohort, one column per day N = 1.. of `kind`
 * (classic by default) up to the last day any cohort has reached, as percentages; a null share (a
 * day not reached yet) leaves its cell blank.
 */
export function retentionCells(
  cohorts: RetentionCohortLike[],
  kind: 'classic' | 'rolling' = 'classic',
): RetentionHeatmap {
  const kept = cohorts.filter((c) => c.size > 0);
  const cells: [number, number, number][] = [];
  kept.forEach((c, y) => {
    c[kind].forEach((v, x) => {
      if (v != null && Number.isFinite(v)) cells.push([x, y, Math.round(v * 1000) / 10]);
    });
  });
  const width = Math.max(0, ...cells.map(([x]) => x + 1));
  return {
    rows: kept.map((c) => ({ date: c.date, size: c.size })),
    days: Array.from({ length: width }, (_, i) => `D${i + 1}`),
    cells,
  };
}

/** How each entry verdict reads to people, in the legend's order (best first). */
export const VERDICT_LABELS: Record<string, string> = {
  strong: 'Strong',
  enter_with_edge: 'Enter with an edge',
  avoid: 'Avoid',
  unproven: 'Unproven',
};

/** A genre as GET /api/genre-opportunities answers it; locked (free-shape) rows carry nulls. */
export interface GenreOpportunityLike {
  name: string;
  display_name: string;
  locked: boolean;
  saturation_index: number | null;
  growth_rate: number | null;
  demand_per_game: number | null;
  entry_verdict: string | null;
  opportunity_score: number | null;
}

export interface GenreBubblePoint {
  name: string;
  /** [saturation, growth (0 when unknown), demand per game, opportunity score or null] */
  value: [number, number, number, number | null];
  symbolSize: number;
  symbol: 'circle' | 'emptyCircle';
  itemStyle: { color: string; borderColor: string; borderWidth: number; opacity: number };
  growthKnown: boolean;
}

export interface GenreBubbleSeries {
  verdict: string;
  label: string;
  colour: string;
  data: GenreBubblePoint[];
}

/**
 * The heatmap as one scatter series per verdict (so the legend names the verdicts and toggles them),
 * in the order of VERDICT_LABELS; verdicts without a genre are left out. Rows without the analytic
 * fields (locked, or not computed) are not drawn. A genre whose growth is unknown sits on 0 % as a
 * hollow ring, so it cannot be read as "no growth".
 */
export function genreBubbleSeries(rows: GenreOpportunityLike[]): GenreBubbleSeries[] {
  const drawable = rows.filter(
    (r) => !r.locked && r.saturation_index != null && r.demand_per_game != null && r.entry_verdict != null,
  );
  const bubbles = genreBubbles(
    drawable.map((r) => ({
      name: r.name,
      display_name: r.display_name,
      saturation_index: r.saturation_index as number,
      growth_rate: r.growth_rate,
      demand_per_game: r.demand_per_game as number,
      entry_verdict: r.entry_verdict as string,
    })),
  );
  const known = Object.keys(VERDICT_LABELS);
  const verdicts = [...known, ...new Set(bubbles.map((b) => b.verdict).filter((v) => !known.includes(v)))];
  return verdicts
    .map((verdict) => {
      const colour = VERDICT_COLOURS[verdict] ?? (VERDICT_COLOURS.unproven as string);
      const data = bubbles
        .map((b, i) => ({ b, row: drawable[i] as GenreOpportunityLike }))
        .filter(({ b }) => b.verdict === verdict)
        .map(
          ({ b, row }): GenreBubblePoint => ({
            name: b.name,
            value: [b.value[0], b.value[1], b.value[2], row.opportunity_score],
            symbolSize: Math.round(b.symbolSize * 10) / 10,
            symbol: b.growthKnown ? 'circle' : 'emptyCircle',
            itemStyle: {
              color: b.growthKnown ? colour : 'transparent',
              borderColor: colour,
              borderWidth: b.growthKnown ? 1 : 2,
              opacity: b.growthKnown ? 0.8 : 1,
            },
            growthKnown: b.growthKnown,
          }),
        );
      return { verdict, label: VERDICT_LABELS[verdict] ?? verdict.replace(/_/g, ' '), colour, data };
    })
    .filter((s) => s.data.length > 0);
}

/** A signed percentage label as the API writes benchmarks ("+12.5%", "-3.0%") → 0.125, −0.03; else null. */
export function parseSignedPercent(label: string): number | null {
  const m = /^([+-])(\d+(?:\.\d+)?)%$/.exec(label.trim());
  if (!m) return null;
  const magnitude = Number(m[2]) / 100;
  return m[1] === '-' ? -magnitude : magnitude;
}

/**
 * Benchmark labels as horizontal bars: one per key in the given order (unparseable labels left out),
 * green when the game is at or above its benchmark, red below.
 */
export function benchmarkBars(
  benchmarks: Record<string, string>,
  label: (key: string) => string,
): { key: string; name: string; value: number; colour: string }[] {
  return Object.entries(benchmarks).flatMap(([key, text]) => {
    const v = parseSignedPercent(text);
    if (v == null) return [];
    return [
      { key, name: label(key), value: Math.round(v * 1000) / 10, colour: v >= 0 ? '#16a34a' : '#dc2626' },
    ];
  });
}
