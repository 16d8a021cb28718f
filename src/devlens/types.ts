/**
 * The Dev Lens pipeline's shared shapes: the statistical core (detect, parse, metrics, benchmarks,
 * patterns: analysis.ts and its siblings) produces an Analysis; the advice layer (recommendations,
 * narrative: advice.ts) turns it into what the endpoint answers.
 */

import type { DevLensResultT } from './devlens.schemas.js';

export const FILE_TYPES = ['retention', 'engagement', 'monetization', 'acquisition', 'funnel'] as const;
export type FileType = (typeof FILE_TYPES)[number];

/** A finding from the data, with the figures behind it (the narrative and advice read these). */
export interface Pattern {
  /** Stable key, e.g. 'weekly_cycle', 'trend', 'anomaly', 'd1_d7_cliff', 'worst_funnel_step'. */
  kind: string;
  /** One sentence a person reads, citing the numbers ("Weekends run 38.2% above weekdays (p < 0.01)"). */
  text: string;
  /** How much it matters, 0..1 (effect size × confidence), for ranking. */
  weight: number;
  /** The numbers behind the sentence. */
  figures: Record<string, number>;
}

export interface Analysis {
  file_type: FileType;
  /** Per type (documented in OpenAPI): e.g. retention d1_retention, d7_retention, d30_retention (fractions). */
  metrics: Record<string, number | null>;
  /** Signed percentage labels against the genre (or the file's own benchmark rows): "+12.5%", "-3.0%", "+0.0%". */
  benchmarks: Record<string, string>;
  /** Which genre the benchmarks used ('all' by default) and whether the file's own benchmark rows were used. */
  benchmark_source: { genre: string; from_file: boolean };
  patterns: Pattern[];
  /** Rows read, days covered, days missing inside the range (for honesty in the narrative). */
  coverage: {
    rows: number;
    days: number;
    missing_days: number;
    first_day: string | null;
    last_day: string | null;
  };
}

/** What POST /api/dev-lens/analyze answers (interface §2 Dev Lens result, plus coverage), unsaved. */
export type DevLensResult = Omit<DevLensResultT, 'report_id'>;
