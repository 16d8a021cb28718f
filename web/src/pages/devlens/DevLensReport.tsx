/**
 * One Dev Lens report: the figures, the benchmark comparison (chart and table), the curves the data
 * has, patterns, recommendations, the narrative and what it all rests on.
 */
import { type ReactNode, type Ref, useMemo } from 'react';
import type { Schemas } from '../../api/client';
import { Chart } from '../../components/Chart';
import { parseSignedPercent } from '../../lib/chart-data';
import {
  BENCHMARK_METRIC,
  basisText,
  benchmarkChartOption,
  benchmarkRows,
  FILE_TYPE_LABELS,
  formatMetric,
  funnelOption,
  metricLabel,
  orderedMetrics,
  retentionCurveOption,
} from './report';

export type ReportData = Omit<Schemas['DevLensResult'], 'report_id'>;

function Section({ title, children }: { title: string; children: ReactNode }) {
  return (
    <section className="stack devlens-section">
      <h3>{title}</h3>
      {children}
    </section>
  );
}

function Metrics({ result }: { result: ReportData }) {
  const labelOf = useMemo(
    () =>
      new Map(Object.entries(BENCHMARK_METRIC).map(([label, metric]) => [metric, result.benchmarks[label]])),
    [result.benchmarks],
  );
  return (
    <div className="stats">
      {orderedMetrics(result.metrics).map(({ key, value }) => {
        const vs = labelOf.get(key);
        const delta = vs != null ? parseSignedPercent(vs) : null;
        return (
          <div className="stat" key={key}>
            <div className="label">{metricLabel(key)}</div>
            <div className={`value${value == null ? ' muted' : ''}`}>{formatMetric(key, value)}</div>
            {vs != null ? (
              <div className={`note ${delta != null && delta < 0 ? 'bad' : 'good'}`}>{vs} vs benchmark</div>
            ) : value == null ? (
              <div className="note">not in this file</div>
            ) : null}
          </div>
        );
      })}
    </div>
  );
}

function Benchmarks({ result, genreName }: { result: ReportData; genreName: string }) {
  const rows = benchmarkRows(result.benchmarks, result.metrics);
  const option = useMemo(() => benchmarkChartOption(result.benchmarks), [result.benchmarks]);
  if (rows.length === 0) return <p className="muted">This file has no figure Dev Lens benchmarks.</p>;
  const against = result.benchmark_source.from_file ? 'the file’s own benchmark rows' : genreName;
  return (
    <div className="grid-2 devlens-bench">
      <Chart
        option={option}
        height={Math.max(140, 56 * rows.length + 40)}
        label={`Difference from ${against}: ${rows.map((r) => `${r.label} ${r.difference}`).join(', ')}.`}
      />
      {/* Four short columns that wrap: no sideways scrolling, even on a phone. */}
      <div className="devlens-bench-table">
        <table className="data-table">
          <caption className="sr-only">Your figures against {against}</caption>
          <thead>
            <tr>
              <th scope="col">Figure</th>
              <th scope="col" className="num">
                Yours
              </th>
              <th scope="col" className="num">
                Benchmark
              </th>
              <th scope="col" className="num">
                Difference
              </th>
            </tr>
          </thead>
          <tbody>
            {rows.map((r) => (
              <tr key={r.key}>
                <th scope="row">{r.label}</th>
                <td className="num">{r.yours}</td>
                <td className="num">{r.benchmark}</td>
                <td className={`num ${r.ahead == null ? '' : r.ahead ? 'good' : 'bad'}`}>
                  <strong>{r.difference}</strong>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </div>
  );
}

function Curves({ result }: { result: ReportData }) {
  const retention = useMemo(
    () => (result.file_type === 'retention' ? retentionCurveOption(result.metrics, result.benchmarks) : null),
    [result],
  );
  const funnel = useMemo(
    () => (result.file_type === 'funnel' ? funnelOption(result.metrics) : null),
    [result],
  );
  if (retention) {
    return (
      <Section title="Retention curve">
        <Chart
          option={retention}
          height={260}
          label={`Retention: day 1 ${formatMetric('d1_retention', result.metrics.d1_retention)}, day 7 ${formatMetric('d7_retention', result.metrics.d7_retention)}, day 30 ${formatMetric('d30_retention', result.metrics.d30_retention)}, with the benchmark curve.`}
        />
      </Section>
    );
  }
  if (funnel) {
    return (
      <Section title="Funnel">
        <Chart
          option={funnel}
          height={240}
          label={`Funnel: ${formatMetric('first_step_users', result.metrics.first_step_users)} players at the first step, ${formatMetric('last_step_users', result.metrics.last_step_users)} at the last.`}
        />
      </Section>
    );
  }
  return null;
}

function Paragraphs({ text }: { text: string }) {
  const parts = text.split(/\n{2,}|\r?\n/).filter((p) => p.trim() !== '');
  return (
    <div className="devlens-narrative">
      {parts.map((p, i) => (
        // The narrative's paragraphs have no identity but their place.
        // biome-ignore lint/suspicious/noArrayIndexKey: static text, never reordered
        <p key={i}>{p}</p>
      ))}
    </div>
  );
}

export function DevLensReport({
  result,
  title,
  subtitle,
  genreName,
  headingRef,
}: {
  result: ReportData;
  title: string;
  subtitle?: ReactNode;
  genreName: (key: string) => string;
  /** Focused when a report opens, so keyboard and screen-reader users land on it. */
  headingRef?: Ref<HTMLHeadingElement>;
}) {
  const source =
    result.benchmark_source.genre === 'all'
      ? 'all genres'
      : `${genreName(result.benchmark_source.genre)} games`;
  return (
    <section
      className="card stack devlens-report"
      data-testid="devlens-report"
      aria-labelledby="devlens-report-title"
    >
      <div className="stack devlens-report-head">
        <h2 id="devlens-report-title" ref={headingRef} tabIndex={-1}>
          {title}
        </h2>
        <p className="row small">
          <span className="badge">{FILE_TYPE_LABELS[result.file_type] ?? result.file_type} file</span>
          <span className="badge">
            {result.benchmark_source.from_file
              ? `benchmarks from your export, else ${source}`
              : `benchmarked against ${source}`}
          </span>
          {subtitle}
        </p>
      </div>
      <Section title="Key figures">
        <Metrics result={result} />
      </Section>
      <Section title="Against the benchmark">
        <Benchmarks result={result} genreName={source} />
      </Section>
      <Curves result={result} />
      <div className="grid-2">
        <Section title="What stands out">
          {result.patterns.length > 0 ? (
            <ul className="devlens-list">
              {result.patterns.map((p) => (
                <li key={p}>{p}</li>
              ))}
            </ul>
          ) : (
            <p className="muted">No pattern stood out in this data.</p>
          )}
        </Section>
        <Section title="What to do">
          {result.recommendations.length > 0 ? (
            <ol className="devlens-list">
              {result.recommendations.map((r) => (
                <li key={r}>{r}</li>
              ))}
            </ol>
          ) : (
            <p className="muted">Nothing to change: every benchmarked figure is at or above its benchmark.</p>
          )}
        </Section>
      </div>
      <Section title="In a few words">
        <Paragraphs text={result.ai_analysis} />
      </Section>
      <Section title="What this is based on">
        <ul className="devlens-list muted small">
          {basisText(result.coverage, result.benchmark_source, genreName).map((line) => (
            <li key={line}>{line}</li>
          ))}
          <li>The file was analysed in memory and never stored; a saved report keeps only these results.</li>
        </ul>
      </Section>
    </section>
  );
}
