/**
 * The filters every SDK view shares, kept in the URL's search params so a link reproduces a view:
 * the date range (a preset of 7/30/90 days ending today, or from/to UTC dates), granularity,
 * platform and segment. Pure: tested in range.test.ts.
 */

export const PRESETS = [7, 30, 90] as const;
export const DEFAULT_DAYS = 30;
export const PLATFORMS = ['platform_1', 'platform_2', 'platform_3', 'platform_4'] as const;
export type Platform = (typeof PLATFORMS)[number];
export type Granularity = 'day' | 'week';

export interface SdkFilters {
  from: string;
  to: string;
  /** The preset the range came from, or null for a custom from/to. */
  days: number | null;
  granularity: Granularity;
  platform: Platform | null;
  segment: number | null;
}

/** The query the analytics endpoints take: only what is set. */
export interface AnalyticsQuery {
  from: string;
  to: string;
  granularity?: Granularity;
  platform?: Platform;
  segment?: number;
}

const DAY_MS = 86_400_000;
const DATE = /^\d{4}-\d{2}-\d{2}$/;

export function isDay(value: string | null | undefined): value is string {
  if (!value || !DATE.test(value)) return false;
  const d = new Date(`${value}T00:00:00Z`);
  return !Number.isNaN(d.getTime()) && d.toISOString().slice(0, 10) === value;
}

/** Today's UTC date. */
export function todayUtc(now: Date): string {
  return now.toISOString().slice(0, 10);
}

/** `day` moved by `n` days (UTC). */
export function addDays(day: string, n: number): string {
  return new Date(Date.parse(`${day}T00:00:00Z`) + n * DAY_MS).toISOString().slice(0, 10);
}

/** Days from `from` to `to`, both included. */
export function spanDays(from: string, to: string): number {
  return Math.round((Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / DAY_MS) + 1;
}

/**
 * The filters in `params`: from/to when both are valid dates (a custom range, passed as is: the
 * API answers a reversed or too long one with its own detail), else `days` (a preset, default 30)
 * ending today.
 */
export function readFilters(params: URLSearchParams, now: Date): SdkFilters {
  const granularity: Granularity = params.get('granularity') === 'week' ? 'week' : 'day';
  const p = params.get('platform');
  const platform = (PLATFORMS as readonly string[]).includes(p ?? '') ? (p as Platform) : null;
  const s = Number(params.get('segment'));
  const segment = params.get('segment') && Number.isInteger(s) && s > 0 ? s : null;
  const from = params.get('from');
  const to = params.get('to');
  if (isDay(from) && isDay(to)) return { from, to, days: null, granularity, platform, segment };
  const asked = Number(params.get('days'));
  const days = (PRESETS as readonly number[]).includes(asked) ? asked : DEFAULT_DAYS;
  const end = todayUtc(now);
  return { from: addDays(end, 1 - days), to: end, days, granularity, platform, segment };
}

export function analyticsQuery(f: SdkFilters): AnalyticsQuery {
  return {
    from: f.from,
    to: f.to,
    ...(f.granularity === 'week' ? { granularity: 'week' as const } : {}),
    ...(f.platform ? { platform: f.platform } : {}),
    ...(f.segment ? { segment: f.segment } : {}),
  };
}

/** `params` with `changes` applied (null removes a key); choosing a preset drops from/to and back. */
export function withFilters(
  params: URLSearchParams,
  changes: Record<string, string | null>,
): URLSearchParams {
  const next = new URLSearchParams(params);
  for (const [key, value] of Object.entries(changes)) {
    if (value == null || value === '') next.delete(key);
    else next.set(key, value);
  }
  if ('days' in changes && changes.days) {
    next.delete('from');
    next.delete('to');
  }
  if (('from' in changes || 'to' in changes) && next.get('from') && next.get('to')) next.delete('days');
  return next;
}

/** The export download's address: same range and platform as the views. */
export function exportHref(
  gameId: string,
  f: Pick<SdkFilters, 'from' | 'to' | 'platform'>,
  format: 'ndjson' | 'csv',
  types: string[],
): string {
  const q = new URLSearchParams({ game_id: gameId, from: f.from, to: f.to, format });
  if (f.platform) q.set('platform', f.platform);
  if (types.length > 0) q.set('types', types.join(','));
  return `/api/sdk/export?${q.toString()}`;
}
