/**
 * The funnel's rules beyond its schema (each step is a level or a custom event, never both; its
 * conditions are valid) and the shape of its answer: conversions and medians from the per-step
 * counts funnel.repo.ts reads.
 */
import { errors } from '../errors.js';
import type { AnalyticsQueryT } from './analytics.schemas.js';
import type { AnalyticsService, Reader } from './analytics.service.js';
import { checkConditions } from './conditions.js';
import { type FunnelStepRow, funnelSteps } from './funnel.repo.js';
import {
  DEFAULT_WINDOW_HOURS,
  type FunnelBodyT,
  type FunnelResultT,
  type FunnelStepT,
} from './funnel.schemas.js';
import { ratio4, round } from './views/figures.js';
import type { ViewContext } from './views/view.js';

/** 422 naming the first step at fault (`body.steps[i]`, or the condition inside it). */
export function checkFunnel(body: FunnelBodyT): void {
  body.steps.forEach((step, i) => {
    const at = `body.steps[${i}]`;
    if ((step.level === undefined) === (step.custom === undefined)) {
      throw errors.validation(at, `${at} must have exactly one of level and custom`);
    }
    if (step.where) checkConditions(step.where, `${at}.where`);
  });
}

export function stepLabel(step: FunnelStepT): string {
  return step.level !== undefined ? `level ${step.level}` : (step.custom ?? '');
}

/** The answer's steps from the per-step rows (one per step, in order). */
export function funnelResult(
  steps: readonly FunnelStepT[],
  rows: readonly FunnelStepRow[],
): FunnelResultT['steps'] {
  const first = rows[0]?.players;
  return steps.map((step, i) => {
    const row = rows[i] ?? { players: 0, median_gap: null };
    return {
      index: i,
      label: stepLabel(step),
      players: row.players,
      conversion_from_first: ratio4(row.players, first),
      conversion_from_previous: i === 0 ? null : ratio4(row.players, rows[i - 1]?.players),
      median_seconds_from_previous: i === 0 || row.median_gap === null ? null : round(Number(row.median_gap)),
    };
  });
}

/** The funnel of one game for `reader` (the views' access, range and segment rules), or 422/404. */
export async function funnel(
  analytics: AnalyticsService,
  reader: Reader,
  gameId: string,
  query: AnalyticsQueryT,
  body: FunnelBodyT,
): Promise<FunnelResultT> {
  checkFunnel(body);
  const { ctx, header } = await analytics.context(reader, gameId, query);
  return { ...header, ...(await loadFunnel(ctx, body)) };
}

async function loadFunnel(
  ctx: ViewContext,
  body: FunnelBodyT,
): Promise<{ window_hours: number; steps: FunnelResultT['steps'] }> {
  const windowHours = body.window_hours ?? DEFAULT_WINDOW_HOURS;
  const rows = await funnelSteps(ctx, body.steps, windowHours);
  return { window_hours: windowHours, steps: funnelResult(body.steps, rows) };
}
