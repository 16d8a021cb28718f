import { sparklinePath } from '../lib/chart-data';

/** A tiny SVG line of a series (the trending table's ccu_history): no chart library needed. */
export function Sparkline({
  values,
  label,
  width = 96,
  height = 24,
}: {
  values: number[];
  label: string;
  width?: number;
  height?: number;
}) {
  const d = sparklinePath(values, width, height);
  const rising = values.length > 1 && values[values.length - 1]! >= values[0]!;
  return (
    <svg
      className={`sparkline ${rising ? 'up' : 'down'}`}
      width={width}
      height={height}
      viewBox={`0 0 ${width} ${height}`}
      role="img"
      aria-label={label}
    >
      {d ? <path d={d} fill="none" strokeWidth="1.5" /> : null}
    </svg>
  );
}
