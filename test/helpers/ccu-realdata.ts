/**
 * Loads the real CCU histories (realdata ccu-history/) for the calibration test, scripts/calibrate.ts
 * and the forecast bench. Never product code: three of the four files have no licence that allows
 * shipping them. Each file is found like every other real-data file (test/helpers/realdata.ts): the
 * repository's copy first, then ../shared/realdata; a test guards itself with `needsRealdata`.
 */
import { readFileSync } from 'node:fs';
import { parse } from 'csv-parse/sync';
import type {
  CcuReading,
  GameSeries,
  RealData,
  VisitsReading,
} from '../../src/platform/simulated/calibration-data.js';
import { realdataFile } from './realdata.js';

export type { CcuReading } from '../../src/platform/simulated/calibration-data.js';

export const FILES = {
  ccu15: 'ccu_15min_3games_2026-07-20_to_2026-08-22__mxvnns-mxf-ccu-log.csv',
  ccu4h: 'ccu_4h_24games_2026-04-02_to_2026-08-22__hugohimself.csv',
  visitsDaily: 'visits_daily_24games_2026-03-31_to_2026-08-22__hugohimself.csv',
  top1000: 'top1000_snapshot_2024-09-29__biggiefats-romonitor.csv',
} as const;

/** The realdata path of one of FILES (for `needsRealdata`). */
export function ccuHistoryFile(file: string): string {
  return `ccu-history/${file}`;
}

function rows(file: string): Record<string, string>[] {
  const text = readFileSync(realdataFile(ccuHistoryFile(file)), 'utf8');
  return parse(text, { columns: true, skip_empty_lines: true });
}

/** "609,660" → 609660 (the top-1000 scrape keeps thousands separators). */
function num(s: string | undefined): number {
  const v = Number((s ?? '').replace(/,/g, ''));
  if (!Number.isFinite(v)) throw new Error(`not a number: ${s}`);
  return v;
}

/** ISO timestamps with a time of day; date-only keys (three early 4-hourly snapshots) give null. */
function instant(s: string | undefined): number | null {
  if (!s?.includes('T')) return null;
  const t = Date.parse(s.endsWith('Z') ? s : `${s}Z`);
  return Number.isFinite(t) ? t : null;
}

/**
 * Per-game series, sorted by time. Universe id 0 is a placeholder in the 4-hourly source (always
 * 0 players) and is dropped; readings without a time of day are dropped too.
 */
function series(records: Record<string, string>[], timeCol: string): GameSeries[] {
  const byId = new Map<string, CcuReading[]>();
  for (const r of records) {
    const t = instant(r[timeCol]);
    const id = r.universeId ?? '';
    if (t === null || id === '0' || id === '') continue;
    const list = byId.get(id) ?? [];
    list.push({ t, ccu: num(r.playing) });
    byId.set(id, list);
  }
  return [...byId].map(([id, readings]) => ({ id, readings: readings.sort((a, b) => a.t - b.t) }));
}

export function loadRealData(): RealData {
  const visitsDaily = new Map<string, VisitsReading[]>();
  for (const r of rows(FILES.visitsDaily)) {
    const id = r.universeId ?? '';
    if (id === '0' || id === '') continue;
    const list = visitsDaily.get(id) ?? [];
    list.push({ day: Date.parse(`${r.date_utc}T00:00:00Z`), visits: num(r.visits_cumulative) });
    visitsDaily.set(id, list);
  }
  for (const list of visitsDaily.values()) list.sort((a, b) => a.day - b.day);
  return {
    ccu15: series(rows(FILES.ccu15), 'ts'),
    ccu4h: series(rows(FILES.ccu4h), 'snapshot_utc'),
    visitsDaily,
    top1000: rows(FILES.top1000).map((r) => ({
      rank: num((r.Rank ?? '').replace('#', '')),
      name: r.Name ?? '',
      ccu: num(r.Active),
      visits: num(r.Visits),
      favourites: num(r.Favourites),
      likes: num(r.Likes),
      dislikes: num(r.Dislikes),
    })),
  };
}
