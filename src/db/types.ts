/**
 * Row value parsing shared by both engines, so a row reads the same on PGlite and PostgreSQL:
 * int8 and numeric become JS numbers (ids and counts stay far below 2^53; analytics are floats),
 * `date` stays a 'YYYY-MM-DD' string (never a local-midnight Date), timestamptz is a Date.
 */

export const OID = {
  INT8: 20,
  NUMERIC: 1700,
  DATE: 1082,
  INT8_ARRAY: 1016,
  NUMERIC_ARRAY: 1231,
} as const;

export function parseInt8(value: string): number {
  const n = Number(value);
  if (!Number.isSafeInteger(n)) throw new RangeError(`int8 value ${value} is outside the safe integer range`);
  return n;
}

export function parseNumeric(value: string): number {
  return Number(value);
}

export function parseDate(value: string): string {
  return value;
}

/** Parses a one-dimensional Postgres array literal of numbers ("{1,2,NULL}"). */
export function parseNumberArray(value: string, parse: (v: string) => number): (number | null)[] {
  const inner = value.slice(1, -1);
  if (inner === '') return [];
  return inner.split(',').map((v) => (v === 'NULL' ? null : parse(v)));
}
