/**
 * TypeBox schemas of the Dev Lens endpoints: the DevLensResult (spec/interface.md §2, plus coverage,
 * benchmark_source and report_id) and the saved-report list. Per-type metric and benchmark keys are
 * written into the descriptions from the core's own key lists, so the document cannot drift.
 */
import { type Static, Type } from 'typebox';
import { BENCHMARK_GENRES, BENCHMARK_KEYS, METRIC_KEYS } from './analysis.js';
import { FILE_TYPES } from './types.js';

/** One uploaded file may be at most this many bytes (10 MiB); past it → 413 payload_too_large. */
export const MAX_FILE_BYTES = 10 * 1024 * 1024;
export const REPORTS_LIMIT_MAX = 100;

function keysByType(keys: Readonly<Record<string, readonly string[]>>): string {
  return FILE_TYPES.map((t) => `- \`${t}\`: ${(keys[t] ?? []).map((k) => `\`${k}\``).join(', ')}`).join('\n');
}

const Metrics = Type.Record(Type.String(), Type.Union([Type.Number(), Type.Null()]), {
  description:
    'The computed figures; keys depend on `file_type` (rates are fractions, 0.041 = 4.1%; null when the file ' +
    `lacks what the figure needs):\n${keysByType(METRIC_KEYS)}`,
});

const Benchmarks = Type.Record(Type.String(), Type.String(), {
  description:
    'Each metric against the chosen genre (or the file’s own benchmark rows), as a signed percentage label with ' +
    'one decimal, always signed: "+12.5%", "-3.0%", "+0.0%". These labels are the only strings in the answer ' +
    `allowed to begin with + or -. Keys by \`file_type\`:\n${keysByType(BENCHMARK_KEYS)}`,
});

const Coverage = Type.Object(
  {
    rows: Type.Integer({ minimum: 0, description: 'Data rows read' }),
    days: Type.Integer({ minimum: 0, description: 'Distinct days covered' }),
    missing_days: Type.Integer({ minimum: 0, description: 'Days missing between the first and last day' }),
    first_day: Type.Union([Type.String(), Type.Null()], { description: 'First day (YYYY-MM-DD), if dated' }),
    last_day: Type.Union([Type.String(), Type.Null()], { description: 'Last day (YYYY-MM-DD), if dated' }),
  },
  { additionalProperties: false, description: 'How much of the period the file covers' },
);

const BenchmarkSource = Type.Object(
  {
    genre: Type.String({ description: `The genre compared against: ${BENCHMARK_GENRES.join(', ')}` }),
    from_file: Type.Boolean({ description: 'True when the file’s own benchmark rows were used' }),
  },
  { additionalProperties: false },
);

const resultFields = {
  file_type: Type.Enum([...FILE_TYPES], { description: 'The detected kind of CSV (by header names)' }),
  metrics: Metrics,
  benchmarks: Benchmarks,
  benchmark_source: BenchmarkSource,
  patterns: Type.Array(Type.String(), { description: 'Findings in the data, strongest first' }),
  ai_analysis: Type.String({
    description:
      'A narrative written only from the computed numbers (each number in it is one of metrics, benchmarks, ' +
      'pattern figures or coverage), including how much of the period the file covers. The default writer ' +
      'runs offline; no file content is sent anywhere.',
  }),
  recommendations: Type.Array(Type.String(), {
    description: 'What to do, highest expected impact first; each cites the number it rests on',
  }),
  coverage: Coverage,
};

export const DevLensResult = Type.Object(
  {
    ...resultFields,
    report_id: Type.Optional(
      Type.Integer({
        description: 'With ?save=true: the id of the stored report (GET /api/dev-lens/reports)',
      }),
    ),
  },
  { $id: 'DevLensResult', title: 'DevLensResult', additionalProperties: false },
);
export type DevLensResultT = Static<typeof DevLensResult>;

export const AnalyzeQuery = Type.Object({
  save: Type.Boolean({
    default: false,
    description: 'Store the result (never the file) as a report listed by GET /api/dev-lens/reports',
  }),
});

export const ReportsQuery = Type.Object({
  limit: Type.Integer({
    minimum: 1,
    maximum: REPORTS_LIMIT_MAX,
    default: 20,
    description: 'Reports per page',
  }),
});

const SavedReport = Type.Object(
  {
    id: Type.Integer(),
    file_type: Type.Enum([...FILE_TYPES]),
    genre: Type.String({ description: 'The genre the benchmarks used' }),
    created_at: Type.String({ format: 'date-time', description: 'When it was saved (UTC, ISO 8601)' }),
    result: Type.Object(resultFields, { additionalProperties: false }),
  },
  { additionalProperties: false },
);

export const ReportList = Type.Object(
  { reports: Type.Array(SavedReport, { description: 'The caller’s saved reports, newest first' }) },
  { additionalProperties: false },
);
export type ReportListT = Static<typeof ReportList>;

export const devLensSchemas = [DevLensResult];
