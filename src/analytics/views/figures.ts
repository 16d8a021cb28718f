/**
 * How analytics answers round their figures, in one place: money and shares to 4 decimals, other
 * averages and percentiles to 2; a ratio over nothing (no players, payers, impressions) is null.
 */

/** `x` to `digits` decimals. */
export function round(x: number, digits = 2): number {
  return Number(x.toFixed(digits));
}

/** `x` to `digits` decimals; null stays null (a percentile of no values). */
export function roundOrNull(x: number | null, digits = 2): number | null {
  return x === null ? null : round(x, digits);
}

/** Money and shares: 4 decimals. */
export function round4(x: number): number {
  return round(x, 4);
}

/** a / b to 4 decimals; null when b is 0 or unknown. */
export function ratio4(a: number, b: number | undefined): number | null {
  return b !== undefined && b > 0 ? round4(a / b) : null;
}
