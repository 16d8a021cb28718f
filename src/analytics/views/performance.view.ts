/**
 * performance: how smoothly the game runs, from the SDK's `performance` samples. An FPS histogram
 * of fps_avg in fixed 10-fps buckets, p5/p50/p95 of fps_avg overall and for the 20 devices with the
 * most samples (the rest folded into `other_devices`), p95 of frame_time_ms_p95, median memory_mb,
 * and the sessions and players sampled. Percentiles are of values kept at a fixed resolution
 * (performance.repo.ts): `percentile_method` states it and its bound.
 */
import { Type } from 'typebox';
import { viewResponse } from '../analytics.schemas.js';
import { roundOrNull } from './figures.js';
import { type PerfFigures, performanceFigures, TOP_DEVICES } from './performance.repo.js';
import type { View } from './view.js';

export const PERF_PERCENTILE_METHOD = 'percentile_cont of values rounded to 0.1 fps, 0.1 ms, 1 MB';

const Nullable = (description: string) => Type.Union([Type.Number(), Type.Null()], { description });

const figureFields = {
  samples: Type.Integer({ description: 'performance events (samples) in the range.' }),
  sessions_sampled: Type.Integer({
    description:
      'Distinct sessions (platform, player, session_id) with at least one sample; samples without a session_id count in none.',
  }),
  players_sampled: Type.Integer({ description: 'Distinct players with at least one sample.' }),
  fps_avg: Type.Object(
    {
      p5: Nullable('5th percentile of the samples’ fps_avg, frames per second, 2 decimals.'),
      p50: Nullable('Median of the samples’ fps_avg, frames per second, 2 decimals.'),
      p95: Nullable('95th percentile of the samples’ fps_avg, frames per second, 2 decimals.'),
    },
    {
      description:
        'Percentiles of fps_avg over the samples (one value per performance event, not per session); nulls without samples. See percentile_method.',
    },
  ),
  frame_time_ms_p95: Nullable(
    '95th percentile over the samples that sent frame_time_ms_p95 of that value, milliseconds, 2 decimals; null when none sent it. See percentile_method.',
  ),
  memory_mb_p50: Nullable(
    'Median over the samples that sent memory_mb of that value, megabytes, 2 decimals; null when none sent it. See percentile_method.',
  ),
};

const Bucket = Type.Object({
  from_fps: Type.Integer({ description: 'Lower bound, frames per second, included.' }),
  to_fps: Type.Union([Type.Integer(), Type.Null()], {
    description: 'Upper bound, frames per second, excluded; null for the last bucket (60 and more).',
  }),
  samples: Type.Integer({ description: 'Samples whose fps_avg (rounded to 0.1 fps) falls in the bucket.' }),
});

export const PerformanceView = viewResponse(
  'SdkPerformance',
  {
    fps_histogram: Type.Array(Bucket, {
      description: 'Samples per fps_avg bucket: 0–10, 10–20, …, 50–60, 60+ (always these 7, 0 where none).',
    }),
    ...figureFields,
    by_device: Type.Array(
      Type.Object({
        device: Type.Union([Type.String(), Type.Null()], {
          description: 'The payload’s device; null: samples that named none.',
        }),
        ...figureFields,
      }),
      { description: `The ${TOP_DEVICES} devices with the most samples (ties by name), most samples first.` },
    ),
    other_devices: Type.Union(
      [
        Type.Object({
          devices: Type.Integer({ description: 'How many devices are folded in here.' }),
          ...figureFields,
          sessions_sampled: Type.Integer({
            description:
              'The sum over the folded devices of each one’s distinct sessions sampled (a session sampled on two of them counts in each).',
          }),
          players_sampled: Type.Integer({
            description:
              'The sum over the folded devices of each one’s distinct players sampled (a player sampled on two of them counts in each).',
          }),
        }),
        Type.Null(),
      ],
      {
        description: `The samples of every device beyond the first ${TOP_DEVICES}, together; null when there are none.`,
      },
    ),
    percentile_method: Type.Literal(PERF_PERCENTILE_METHOD, {
      description:
        'Each sample is kept rounded: fps_avg and frame_time_ms_p95 to 0.1, memory_mb to 1 MB. Percentiles are taken ' +
        'over those values with linear interpolation between ranks (PostgreSQL percentile_cont, position p × (N − 1)), ' +
        'so each is within 0.05 fps, 0.05 ms or 0.5 MB of the same percentile of the exact values.',
    }),
  },
  'FPS histogram, fps_avg percentiles overall and by device, frame time p95, median memory, sessions sampled.',
);

/** The reported figures of one group. */
export function perfReport(f: PerfFigures | undefined) {
  return {
    samples: f?.samples ?? 0,
    sessions_sampled: f?.sessions ?? 0,
    players_sampled: f?.players ?? 0,
    fps_avg: {
      p5: roundOrNull(f?.fps?.[0] ?? null),
      p50: roundOrNull(f?.fps?.[1] ?? null),
      p95: roundOrNull(f?.fps?.[2] ?? null),
    },
    frame_time_ms_p95: roundOrNull(f?.frame_time_p95 ?? null),
    memory_mb_p50: roundOrNull(f?.memory_p50 ?? null),
  };
}

export const performance: View<typeof PerformanceView> = {
  name: 'performance',
  schema: PerformanceView,
  summary: 'FPS histogram, fps_avg p5/p50/p95 overall and by device, frame time p95, median memory',
  async load(ctx) {
    const figures = await performanceFigures(ctx);
    return {
      fps_histogram: figures.buckets.map((samples, i) => ({
        from_fps: i * 10,
        to_fps: i < 6 ? i * 10 + 10 : null,
        samples,
      })),
      ...perfReport(figures.overall),
      by_device: figures.devices.map((d) => ({
        device: d.device === '' ? null : d.device,
        ...perfReport(d),
      })),
      other_devices: figures.other ? { devices: figures.other.devices, ...perfReport(figures.other) } : null,
      percentile_method: PERF_PERCENTILE_METHOD,
    };
  },
};
