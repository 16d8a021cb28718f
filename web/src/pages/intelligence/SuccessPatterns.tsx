/**
 * Success patterns (GET /api/intelligence/success-patterns, Builder and up): what the games that
 * grew most in a period have in common against the rest of their genre, as a forest plot of effects
 * with 95% intervals, the patterns in words, and every feature's figures in a table.
 */

import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { Link } from 'react-router';
import { ApiError, api, unwrap } from '../../api/client';
import { Chart } from '../../components/Chart';
import { type Column, DataTable } from '../../components/DataTable';
import { GenreOptions } from '../../components/GenreSelect';
import { PageHeader } from '../../components/Layout';
import { Empty, ErrorState, Loading, SignInNotice, UpgradeCard } from '../../components/states';
import { formatDay, formatInteger, formatPercent } from '../../lib/format';
import { useMe } from '../../lib/session';
import { effectText, forestPlot, groupText, type Pattern, type SuccessPatterns } from './patterns-chart';

type Period = '7d' | '30d' | '90d';

const columns: Column<Pattern>[] = [
  { key: 'label', header: 'Feature', cell: (p) => p.label, sort: (p) => p.label },
  {
    key: 'top',
    header: 'Top quartile',
    title: 'Median (numeric) or share of titles (keyword), and how many games',
    cell: (p) => groupText(p, 'top'),
    sort: (p) => p.top.value,
    numeric: true,
  },
  {
    key: 'rest',
    header: 'Rest',
    cell: (p) => groupText(p, 'rest'),
    sort: (p) => p.rest.value,
    numeric: true,
  },
  {
    key: 'effect',
    header: 'Effect (95% CI)',
    title: "Cliff's δ, or the difference of shares for title keywords: −1 to 1",
    cell: (p) => <span className={p.significant ? 'good' : 'muted'}>{effectText(p)}</span>,
    sort: (p) => (p.effect === null ? null : Math.abs(p.effect)),
    numeric: true,
  },
];

function Results({ data }: { data: SuccessPatterns }) {
  if (data.features.length === 0) {
    return <Empty title="Not enough games to compare.">{data.reason}</Empty>;
  }
  const patterns = data.features.filter((f) => f.pattern !== null);
  return (
    <>
      <p className="small muted" data-testid="patterns-summary">
        {formatInteger(data.eligible_games)} of {formatInteger(data.games_with_readings)} games with readings
        qualify; the top quartile ({formatInteger(data.top_quartile.games)} games, growth ≥{' '}
        {formatPercent(data.growth_threshold, { signed: true })}) against the other{' '}
        {formatInteger(data.rest.games)}, {data.current_window ? formatDay(data.current_window.from) : '–'} to{' '}
        {data.through_day ? formatDay(data.through_day) : '–'} against the same number of days before.
      </p>
      <section aria-labelledby="patterns-found">
        <h3 id="patterns-found">Patterns</h3>
        {patterns.length === 0 ? (
          <p className="muted" data-testid="no-patterns">
            No feature separates the groups at 95% confidence.
          </p>
        ) : (
          <ul data-testid="patterns-list">
            {patterns.map((p) => (
              <li key={p.feature}>{p.pattern}</li>
            ))}
          </ul>
        )}
      </section>
      <Chart
        label="Effect of each feature, top growth quartile against the rest, with 95% intervals"
        option={forestPlot(data.features)}
        testId="patterns-forest"
        height={Math.max(200, 28 * data.features.length + 60)}
      />
      <DataTable
        testId="patterns-table"
        caption="Each feature in both groups"
        rows={data.features}
        columns={columns}
        rowKey={(p) => p.feature}
      />
    </>
  );
}

function Patterns() {
  const [period, setPeriod] = useState<Period>('30d');
  const [genre, setGenre] = useState('');
  const query = { period, ...(genre ? { genre } : {}) };
  const result = useQuery({
    queryKey: ['intelligence', 'success-patterns', query],
    queryFn: () => unwrap(api.GET('/api/intelligence/success-patterns', { params: { query } })),
    retry: (count, error) => !(error instanceof ApiError && error.status < 500) && count < 2,
  });
  const gated = result.error instanceof ApiError && result.error.code === 'plan_upgrade_required';
  if (gated) {
    return (
      <div data-testid="patterns-upgrade">
        <UpgradeCard plan={(result.error as ApiError).requiredPlan ?? 'Builder'} feature="Success patterns">
          <p>See which features set a genre's fastest-growing games apart, with the evidence for each.</p>
        </UpgradeCard>
      </div>
    );
  }
  return (
    <>
      <section className="card stack" aria-labelledby="patterns-title">
        <h2 id="patterns-title">What the fastest-growing games share</h2>
        <fieldset className="row">
          <legend className="sr-only">Filters</legend>
          <label>
            Period{' '}
            <select value={period} onChange={(e) => setPeriod(e.target.value as Period)}>
              <option value="7d">7 days</option>
              <option value="30d">30 days</option>
              <option value="90d">90 days</option>
            </select>
          </label>
          <label>
            Genre{' '}
            <select value={genre} onChange={(e) => setGenre(e.target.value)}>
              <GenreOptions allLabel="Whole market" />
            </select>
          </label>
        </fieldset>
        {result.isPending ? (
          <Loading label="Comparing games" />
        ) : result.isError ? (
          <ErrorState error={result.error} retry={() => void result.refetch()} />
        ) : (
          <Results data={result.data} />
        )}
      </section>
      {result.data ? (
        <details className="card">
          <summary>
            <h2 className="inline-heading">How this is computed</h2>
          </summary>
          <p className="small">{result.data.method}</p>
        </details>
      ) : null}
    </>
  );
}

export function Component() {
  const me = useMe();
  if (me.isPending) return <Loading label="Checking your session" />;
  return (
    <div className="page">
      <PageHeader title="Success patterns" />
      {me.data ? (
        <>
          <p className="muted page-intro">
            The games whose CCU grew most (the top quartile of their genre) against the rest: how old they
            are, how often they update, how they sell game passes, how players rate them and what their titles
            say.
          </p>
          <Patterns />
        </>
      ) : (
        <SignInNotice
          title="Sign in to see what the fastest-growing games share"
          next="/intelligence/patterns"
        />
      )}
    </div>
  );
}
