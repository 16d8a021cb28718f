/** The success-patterns page's forest plot and labels (pure, tested without a browser). */
import type { paths, Schemas } from '../../api/client';
import type { EChartsCoreOption } from '../../components/echarts';

export type SuccessPatterns =
  paths['/api/intelligence/success-patterns']['get']['responses'][200]['content']['application/json'];
export type Pattern = Schemas['SuccessPattern'];

/** 0.4213 → "+0.42", −0.1 → "−0.10", 0 → "0.00". */
export function signedEffect(x: number): string {
  const text = Math.abs(x).toFixed(2);
  return x > 0 ? `+${text}` : x < 0 ? `−${text}` : text;
}

/** "+0.42 (0.18 to 0.61)", or "not measured" without an effect. */
export function effectText(p: Pattern): string {
  if (p.effect === null || p.ci_low === null || p.ci_high === null) return 'not measured';
  return `${signedEffect(p.effect)} (${signedEffect(p.ci_low)} to ${signedEffect(p.ci_high)})`;
}

/** A group's value as the feature reads it: a share in % for title keywords, a median otherwise. */
export function groupText(p: Pattern, side: 'top' | 'rest'): string {
  const g = p[side];
  if (g.value === null) return `– (n=${g.n})`;
  const value =
    p.kind === 'title_keyword'
      ? `${Math.round(g.value * 100)}%`
      : g.value.toLocaleString('en-US', { maximumFractionDigits: 2 });
  return `${value} (n=${g.n})`;
}

/**
 * The forest plot: one row per measured feature (strongest at the top), its effect as a dot (filled
 * when the 95% interval excludes zero) and the interval as a line, with zero marked.
 */
export function forestPlot(features: Pattern[]): EChartsCoreOption {
  const measured = features.filter((f) => f.effect !== null && f.ci_low !== null && f.ci_high !== null);
  // A category axis runs bottom-up: reverse so the first (strongest) feature is on top.
  const rows = [...measured].reverse();
  const labels = rows.map((f) => f.label);
  return {
    tooltip: { trigger: 'item' },
    grid: { left: 220, right: 24, top: 16, bottom: 40 },
    xAxis: {
      type: 'value',
      min: -1,
      max: 1,
      name: 'effect (top quartile − rest)',
      nameLocation: 'middle',
      nameGap: 28,
    },
    yAxis: { type: 'category', data: labels, axisLabel: { width: 200, overflow: 'truncate' } },
    series: [
      ...rows.map((f) => ({
        type: 'line',
        name: `${f.label} 95% CI`,
        data: [
          [f.ci_low, f.label],
          [f.ci_high, f.label],
        ],
        symbol: 'none',
        silent: true,
        lineStyle: { width: 2, color: f.significant ? '#2563eb' : '#9ca3af' },
      })),
      {
        type: 'scatter',
        name: 'Effect',
        symbolSize: 10,
        data: rows.map((f) => ({
          value: [f.effect, f.label],
          itemStyle: f.significant
            ? { color: '#2563eb' }
            : { color: '#ffffff', borderColor: '#6b7280', borderWidth: 1.5 },
        })),
        tooltip: {
          formatter: (p: { dataIndex: number }) => {
            const f = rows[p.dataIndex]!;
            return `${f.label}: ${effectText(f)}`;
          },
        },
        markLine: {
          silent: true,
          symbol: 'none',
          lineStyle: { type: 'dashed', color: '#6b7280' },
          data: [{ xAxis: 0 }],
          label: { show: false },
        },
      },
    ],
  };
}
