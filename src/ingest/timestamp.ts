/**
 * The event time `ts`: ISO 8601 in UTC, precisely `YYYY-MM-DDTHH:MM:SS[.f{1,9}](Z|+00:00)`.
 * Other offsets are refused rather than converted, because §6 asks for UTC and a client that
 * sends local time with an offset is usually also wrong about its clock; `-00:00` (RFC 3339's
 * "offset unknown") is refused for the same reason. Fractions beyond milliseconds are truncated.
 */

const DAYS_IN_MONTH = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31] as const;
const MS_PER_DAY = 86_400_000;
const ZERO = 48;

function isLeapYear(year: number): boolean {
  return (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0;
}

function daysIn(year: number, month: number): number {
  return month === 2 && isLeapYear(year) ? 29 : (DAYS_IN_MONTH[month - 1] ?? 0);
}

/** Days from 1970-01-01 to a proleptic Gregorian date (H. Hinnant's days_from_civil). */
function daysFromCivil(year: number, month: number, day: number): number {
  const y = month <= 2 ? year - 1 : year;
  const era = Math.floor(y / 400);
  const yoe = y - era * 400;
  const doy = Math.floor((153 * (month + (month > 2 ? -3 : 9)) + 2) / 5) + day - 1;
  const doe = yoe * 365 + Math.floor(yoe / 4) - Math.floor(yoe / 100) + doy;
  return era * 146097 + doe - 719468;
}

/** The decimal value of `count` digits from `at`, or -1 when one of them is not a digit. */
function digits(value: string, at: number, count: number): number {
  let n = 0;
  for (let i = at; i < at + count; i++) {
    const d = value.charCodeAt(i) - ZERO;
    if (d < 0 || d > 9) return -1;
    n = n * 10 + d;
  }
  return n;
}

/** Milliseconds from the fraction starting at `at` (after the dot), and where it ends; null if malformed. */
function fraction(value: string, at: number): [number, number] | null {
  let end = at;
  while (end < value.length && end - at < 10 && digits(value, end, 1) >= 0) end++;
  const count = end - at;
  if (count < 1 || count > 9) return null;
  const millis = digits(value, at, Math.min(count, 3));
  return [count >= 3 ? millis : millis * (count === 1 ? 100 : 10), end];
}

/** Whether `value` ends at `at` with `Z` or `+00:00` (compared in place: no substring per event). */
function utcZone(value: string, at: number): boolean {
  const rest = value.length - at;
  if (rest === 1) return value.charCodeAt(at) === 90; // Z
  return rest === 6 && value.startsWith('+00:00', at);
}

/** The instant `value` names, or null when it is not a real UTC calendar time in the format above. */
export function parseUtcTimestamp(value: string): Date | null {
  // Hand-parsed rather than a regex: ts is on every event and this is several times faster.
  if (value.length < 20 || value.length > 35) return null;
  if (value[4] !== '-' || value[7] !== '-' || value[10] !== 'T' || value[13] !== ':' || value[16] !== ':')
    return null;
  const year = digits(value, 0, 4);
  const month = digits(value, 5, 2);
  const day = digits(value, 8, 2);
  const hour = digits(value, 11, 2);
  const minute = digits(value, 14, 2);
  const second = digits(value, 17, 2);
  if (year < 0 || month < 1 || month > 12 || day < 1 || day > daysIn(year, month)) return null;
  // Leap seconds (:60) are refused: a JavaScript Date cannot hold them. (-1 = not digits.)
  if (hour < 0 || hour > 23 || minute < 0 || minute > 59 || second < 0 || second > 59) return null;
  let millis = 0;
  let end = 19;
  if (value[19] === '.') {
    const parsed = fraction(value, 20);
    if (parsed === null) return null;
    [millis, end] = parsed;
  }
  if (!utcZone(value, end)) return null;
  const days = daysFromCivil(year, month, day);
  return new Date(days * MS_PER_DAY + ((hour * 60 + minute) * 60 + second) * 1000 + millis);
}
