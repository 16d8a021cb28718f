/**
 * Layout detection by header names (never by file name). A header cell is normalised (lower case,
 * letters and digits only) and looked up in one alias table, so "Daily Active Users", "daily_active_users",
 * "DAU" and Open Cloud's "DailyActiveUsers" are one KPI. The aliases are the labels documented in
 * shared/realdata/SOURCES.md §3 (Creator Hub chart exports, Open Cloud metric names and dashboard
 * labels, the Sales data CSV attributes) plus common hand-made spellings.
 */
import type { FileType } from './types.js';

/** How a KPI combines when several rows share a day: counts add up, rates average. */
export type Combine = 'sum' | 'mean';
export interface KpiDef {
  id: string;
  type: FileType;
  combine: Combine;
  /** A ratio (0..1); values written as percentages (35 or "35%") are read as fractions. */
  rate?: boolean;
}

const K = (id: string, type: FileType, combine: Combine, rate = false): KpiDef => ({
  id,
  type,
  combine,
  rate,
});

/** Every KPI and its aliases (already normalised). */
const KPI_ALIASES: readonly [KpiDef, readonly string[]][] = [
  [
    K('d1', 'retention', 'mean', true),
    ['d1', 'd1retention', 'day1retention', 'forwardd1retention', 'retentiond1', 'day1', 'retd1'],
  ],
  [
    K('d7', 'retention', 'mean', true),
    ['d7', 'd7retention', 'day7retention', 'forwardd7retention', 'retentiond7', 'day7', 'retd7'],
  ],
  [
    K('d30', 'retention', 'mean', true),
    ['d30', 'd30retention', 'day30retention', 'forwardd30retention', 'retentiond30', 'day30', 'retd30'],
  ],
  [K('new_users', 'retention', 'sum'), ['newusers', 'newplayers', 'installs', 'cohortsize']],
  [K('dau', 'engagement', 'sum'), ['dau', 'dailyactiveusers', 'activeusers', 'dailyusers', 'uniqueusers']],
  [K('mau', 'engagement', 'sum'), ['mau', 'monthlyactiveusers', 'monthlyusers']],
  [
    K('stickiness', 'engagement', 'mean', true),
    ['stickiness', 'daumaustickiness', 'stickinessdaumau', 'daumau', 'daumauratio'],
  ],
  [
    K('sessions', 'engagement', 'sum'),
    ['sessions', 'visits', 'totalsessionsendedinbucket', 'sessioncount', 'totalsessions'],
  ],
  [
    K('playtime_hours', 'engagement', 'sum'),
    ['playtime', 'totalplaytimehours', 'playtimehours', 'totalplaytime'],
  ],
  [
    K('playtime_min_per_dau', 'engagement', 'mean'),
    [
      'averageplaytime',
      'averageplaytimeminutesperdau',
      'avgplaytime',
      'avgplaytimeminutes',
      'playtimeperdau',
    ],
  ],
  [
    K('session_min', 'engagement', 'mean'),
    [
      'averagesessiontime',
      'averagesessionlengthminutes',
      'avgsessionlength',
      'sessionlength',
      'sessionlengthminutes',
      'avgsessionminutes',
      'averagesessionlength',
      'avgsessiontime',
    ],
  ],
  [
    K('revenue', 'monetization', 'sum'),
    [
      'revenue',
      'dailyrevenue',
      'robux',
      'revenuerobux',
      'itemmonetizationrevenue',
      'earnings',
      'totalrevenue',
    ],
  ],
  [K('price', 'monetization', 'sum'), ['price']],
  [K('paying_users', 'monetization', 'sum'), ['payingusers', 'payers', 'uniquepayers', 'buyers']],
  [
    K('payer_cvr', 'monetization', 'mean', true),
    ['payerconversionrate', 'payinguserscvr', 'conversionrate', 'payerconversion', 'payercvr', 'payerrate'],
  ],
  [K('arppu', 'monetization', 'mean'), ['arppu', 'averagerevenueperpayinguser']],
  [K('arpdau', 'monetization', 'mean'), ['arpdau', 'arpu', 'averagerevenueperuser']],
  [K('impressions', 'acquisition', 'sum'), ['impressions', 'uniqueuserswithimpressions', 'views']],
  [K('clicks', 'acquisition', 'sum'), ['clicks', 'uniqueuserswithclicks', 'detailsviews']],
  [
    K('plays', 'acquisition', 'sum'),
    ['plays', 'uniqueuserswithplaysessions', 'qualifieduniqueuserswithplaysessions', 'playsessions', 'joins'],
  ],
  [K('click_rate', 'acquisition', 'mean', true), ['impressioncvr', 'clickthroughrate', 'ctr', 'clickrate']],
  [
    K('play_rate', 'acquisition', 'mean', true),
    ['clickcvr', 'playthroughrate', 'rfyplaythroughrate', 'playrate'],
  ],
  [
    K('acq_cvr', 'acquisition', 'mean', true),
    ['endtoendcvr', 'qualifiedendtoendcvr', 'impressiontoplayrate', 'playconversion'],
  ],
];

const KPI_BY_ALIAS = new Map<string, KpiDef>(
  KPI_ALIASES.flatMap(([def, names]) => names.map((n) => [n, def] as const)),
);

const DATE_NAMES = new Set([
  'date',
  'day',
  'datetime',
  'timestamp',
  'time',
  'saledateandtime',
  'reportdate',
  'period',
  'dt',
]);
const BREAKDOWN_NAMES = new Set(['breakdown', 'segment', 'dimension', 'series']);
const STEP_NAMES = new Set([
  'step',
  'stage',
  'funnelstep',
  'stepname',
  'stagename',
  'event',
  'eventname',
  'funnelstage',
]);
const STEP_ORDER_NAMES = new Set([
  'stepnumber',
  'stepindex',
  'order',
  'position',
  'stepno',
  'stepid',
  'index',
]);
const STEP_COUNT_NAMES = new Set([
  'users',
  'players',
  'count',
  'uniqueusers',
  'value',
  'sessions',
  'total',
  'reached',
  'userscount',
]);
const BUYER_NAMES = new Set(['buyeruserid', 'buyerid', 'buyer', 'userid']);
const HOLD_NAMES = new Set(['holdstatus']);
/** Documented Sales-data attributes that carry no figure Dev Lens uses (recognised, so they never confuse detection). */
const SALES_OTHER = new Set(['salelocation', 'universeid', 'universe', 'assetid', 'assetname', 'assettype']);

export const KNOWN_LAYOUTS: readonly string[] = [
  'Creator Hub chart export: optional "Experience ID,<id>" line and blank line, then "Breakdown,Date,<KPI>" rows (Total, segment and "Benchmark (…)" rows), one KPI per file — e.g. Daily Active Users, Monthly Active Users, Sessions, Playtime, Average session time, Day 1/7/30 retention, Stickiness, Daily Revenue, Paying Users, Payer conversion rate, ARPPU, ARPDAU, Impressions, Clicks, Plays, Impression/Click/End-to-end CVR',
  'Daily table: a Date column plus one column per KPI, any order and case — retention (D1/D7/D30 retention), engagement (DAU, MAU, stickiness, sessions, playtime, average session time), monetization (revenue, paying users, ARPPU, ARPDAU, payer conversion rate) or acquisition (impressions, clicks, plays, click/play/end-to-end conversion)',
  'Creator Hub Sales data export: Sale Date and Time, Revenue and/or Price, with Buyer User ID, Hold Status, Asset Name, Asset Type, Sale Location, Universe, Universe ID, Asset ID',
  'Funnel table: a Step (or Stage/Event) column and a Users (or Players/Count) column, optional Step number and Date columns',
];

export function normaliseHeader(cell: string): string {
  return cell.toLowerCase().replace(/[^a-z0-9]/g, '');
}

export interface KpiColumn {
  index: number;
  kpi: KpiDef;
}

export interface Layout {
  kind: 'daily' | 'sales' | 'funnel';
  fileType: FileType;
  width: number;
  date: number;
  breakdown: number;
  kpis: KpiColumn[];
  step: number;
  stepOrder: number;
  stepCount: number;
  buyer: number;
  hold: number;
}

/** Ties between types go to the first here: DAU is a supporting column in retention/monetization files. */
const TYPE_PRIORITY: readonly FileType[] = [
  'retention',
  'monetization',
  'acquisition',
  'engagement',
  'funnel',
];

function findIndex(names: readonly string[], set: ReadonlySet<string>): number {
  return names.findIndex((n) => set.has(n));
}

/** The layout a header row announces, or null when the row is not a header Dev Lens knows. */
export function detectLayout(header: readonly string[]): Layout | null {
  const names = header.map(normaliseHeader);
  const base = {
    width: names.length,
    date: findIndex(names, DATE_NAMES),
    breakdown: findIndex(names, BREAKDOWN_NAMES),
    step: findIndex(names, STEP_NAMES),
    stepOrder: findIndex(names, STEP_ORDER_NAMES),
    buyer: findIndex(names, BUYER_NAMES),
    hold: findIndex(names, HOLD_NAMES),
  };
  if (base.step >= 0) {
    const stepCount = names.findIndex((n, i) => i !== base.step && STEP_COUNT_NAMES.has(n));
    if (stepCount >= 0) return { ...base, kind: 'funnel', fileType: 'funnel', kpis: [], stepCount };
  }
  if (base.date < 0) return null;
  const kpis = kpiColumns(names);
  const isSales =
    names[base.date] === 'saledateandtime' || (base.buyer >= 0 && names.some((n) => SALES_OTHER.has(n)));
  if (isSales && kpis.some((c) => c.kpi.id === 'revenue' || c.kpi.id === 'price')) {
    return { ...base, kind: 'sales', fileType: 'monetization', kpis, stepCount: -1 };
  }
  if (kpis.length === 0) return null;
  return { ...base, kind: 'daily', fileType: dominantType(kpis), kpis, stepCount: -1 };
}

function kpiColumns(names: readonly string[]): KpiColumn[] {
  const seen = new Set<string>();
  const out: KpiColumn[] = [];
  names.forEach((n, index) => {
    const kpi = KPI_BY_ALIAS.get(n);
    // The first column of a KPI wins (a second "Revenue" column is a duplicate, not a second series).
    if (kpi && !seen.has(kpi.id)) {
      seen.add(kpi.id);
      out.push({ index, kpi });
    }
  });
  return out;
}

function dominantType(kpis: readonly KpiColumn[]): FileType {
  const counts = new Map<FileType, number>();
  for (const c of kpis) counts.set(c.kpi.type, (counts.get(c.kpi.type) ?? 0) + 1);
  let best: FileType = 'engagement';
  let bestCount = 0;
  for (const t of TYPE_PRIORITY) {
    const n = counts.get(t) ?? 0;
    if (n > bestCount) {
      best = t;
      bestCount = n;
    }
  }
  return best;
}
