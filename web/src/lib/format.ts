/** Numbers and times formatted for people: 1.2M, 12.5%, $1,234, local time with UTC on hover. */

const compact = new Intl.NumberFormat('en-US', { notation: 'compact', maximumFractionDigits: 1 });
const whole = new Intl.NumberFormat('en-US', { maximumFractionDigits: 0 });

/** 1234567 → "1.2M", 950 → "950", 12.34 → "12.3"; null/NaN → "–". */
export function formatCompact(n: number | null | undefined): string {
  if (n == null || !Number.isFinite(n)) return '–';
  if (Math.abs(n) < 1000) return Math.abs(n) >= 100 || Number.isInteger(n) ? whole.format(n) : n.toFixed(1);
  return compact.format(n);
}

/** 1234567 → "1,234,567". */
export function formatInteger(n: number | null | undefined): string {
  if (n == null || !Number.isFinite(n)) return '–';
  return whole.format(n);
}

/** A fraction as a percentage: 0.125 → "12.5%"; `signed` adds + to gains. */
export function formatPercent(
  fraction: number | null | undefined,
  options: { digits?: number; signed?: boolean } = {},
): string {
  if (fraction == null || !Number.isFinite(fraction)) return '–';
  const digits = options.digits ?? 1;
  const text = `${(fraction * 100).toFixed(digits)}%`;
  return options.signed && fraction > 0 ? `+${text}` : text;
}

/** Money in US dollars: 1234.5 → "$1,235"; under $100 keeps cents. Robux: formatRobux. */
export function formatUsd(n: number | null | undefined): string {
  if (n == null || !Number.isFinite(n)) return '–';
  const digits = Math.abs(n) < 100 ? 2 : 0;
  return new Intl.NumberFormat('en-US', {
    style: 'currency',
    currency: 'USD',
    minimumFractionDigits: digits,
    maximumFractionDigits: digits,
  }).format(n);
}

export function formatRobux(n: number | null | undefined): string {
  if (n == null || !Number.isFinite(n)) return '–';
  return `R$ ${whole.format(n)}`;
}

/** A score to one decimal (trend scores, opportunity scores). */
export function formatScore(n: number | null | undefined, digits = 1): string {
  if (n == null || !Number.isFinite(n)) return '–';
  return n.toFixed(digits);
}

/** Milliseconds as "2m 05s" or "1h 12m" (session lengths, dwell). */
export function formatDuration(ms: number | null | undefined): string {
  if (ms == null || !Number.isFinite(ms)) return '–';
  const s = Math.round(ms / 1000);
  if (s < 60) return `${s}s`;
  const m = Math.floor(s / 60);
  if (m < 60) return `${m}m ${String(s % 60).padStart(2, '0')}s`;
  return `${Math.floor(m / 60)}h ${String(m % 60).padStart(2, '0')}m`;
}

/** The viewer's local date and time ("Nov 24, 2026, 18:05"), in `timeZone` when given (tests). */
export function formatLocal(iso: string | Date, timeZone?: string): string {
  const d = typeof iso === 'string' ? new Date(iso) : iso;
  if (Number.isNaN(d.getTime())) return '–';
  return new Intl.DateTimeFormat('en-US', {
    dateStyle: 'medium',
    timeStyle: 'short',
    hourCycle: 'h23',
    ...(timeZone ? { timeZone } : {}),
  }).format(d);
}

/** The same instant in UTC, for the hover title: "2026-11-24 18:05 UTC". */
export function formatUtc(iso: string | Date): string {
  const d = typeof iso === 'string' ? new Date(iso) : iso;
  if (Number.isNaN(d.getTime())) return '';
  return `${d.toISOString().slice(0, 16).replace('T', ' ')} UTC`;
}

/** "5 min ago", "3 h ago", "2 d ago" relative to `now`. */
export function formatAgo(iso: string | Date, now: Date = new Date()): string {
  const d = typeof iso === 'string' ? new Date(iso) : iso;
  const s = Math.round((now.getTime() - d.getTime()) / 1000);
  if (!Number.isFinite(s)) return '–';
  if (s < 60) return 'just now';
  if (s < 3600) return `${Math.floor(s / 60)} min ago`;
  if (s < 86_400) return `${Math.floor(s / 3600)} h ago`;
  return `${Math.floor(s / 86_400)} d ago`;
}

/** A calendar day label (YYYY-MM-DD, as the API's day keys) → "Nov 24". */
export function formatDay(day: string): string {
  const d = new Date(`${day}T00:00:00Z`);
  if (Number.isNaN(d.getTime())) return day;
  return new Intl.DateTimeFormat('en-US', { month: 'short', day: 'numeric', timeZone: 'UTC' }).format(d);
}
