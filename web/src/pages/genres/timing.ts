/** Launch-timing text helpers (pure; tested in timing.test.ts). */

const DAY = /^(\d{4})-(\d{2})-(\d{2})$/;

function dayLabel(day: string, withYear: boolean): string | null {
  if (!DAY.test(day)) return null;
  const d = new Date(`${day}T00:00:00Z`);
  if (Number.isNaN(d.getTime())) return null;
  return new Intl.DateTimeFormat('en-US', {
    month: 'short',
    day: 'numeric',
    ...(withYear ? { year: 'numeric' } : {}),
    timeZone: 'UTC',
  }).format(d);
}

/**
 * The API's period "2026-12-20 – 2027-01-05" (both days inclusive, UTC) for people:
 * "Dec 20, 2026 – Jan 5, 2027", or "Mar 15 – Apr 10, 2027" within one year. Anything else unchanged.
 */
export function formatPeriod(period: string): string {
  const parts = period.split(/\s+[–-]\s+/);
  if (parts.length !== 2) return period;
  const [from, to] = parts as [string, string];
  const sameYear = from.slice(0, 4) === to.slice(0, 4);
  const a = dayLabel(from, !sameYear);
  const b = dayLabel(to, true);
  return a && b ? `${a} – ${b}` : period;
}

/** A timing score (0–100, 50 = no change) as words: how strongly the window lifts the genre. */
export function upliftWords(score: number): string {
  if (score >= 85) return 'strong lift';
  if (score >= 70) return 'good lift';
  if (score > 50) return 'slight lift';
  if (score === 50) return 'no change';
  return 'drop';
}
