/** Market: the platform at a glance, trending games (period and genre filters, plan cap), search. */

import { useQuery } from '@tanstack/react-query';
import { Link, useSearchParams } from 'react-router';
import { api, type Schemas, unwrap } from '../../api/client';
import { type Column, DataTable } from '../../components/DataTable';
import { GameSearch } from '../../components/GameSearch';
import { GenreOptions } from '../../components/GenreSelect';
import { rankAndGameColumns } from '../../components/game-columns';
import { PageHeader } from '../../components/Layout';
import { Sparkline } from '../../components/Sparkline';
import { Empty, QueryView } from '../../components/states';
import { Time } from '../../components/Time';
import { formatCompact, formatInteger, formatPercent, formatScore } from '../../lib/format';
import { useMe } from '../../lib/session';

const PERIODS = ['1h', '6h', '24h', '7d', '30d'] as const;
type Period = (typeof PERIODS)[number];
/** The table asks for this many; the server clamps to the plan's cap (DECISIONS §2). */
const REQUESTED = 100;

type Trending = Schemas['TrendingGame'];

export function capNotice(plan: string | null, total: number, limit: number): string | null {
  if (limit >= REQUESTED || total <= limit) return null;
  return plan
    ? `${plan} sees the top ${formatInteger(limit)} of ${formatInteger(total)} games — upgrade for more.`
    : `Visitors see the top ${formatInteger(limit)} of ${formatInteger(total)} games — create a free account, or upgrade for more.`;
}

function trendClass(score: number | null): string {
  if (score == null) return 'muted';
  return score > 0 ? 'good' : score < 0 ? 'bad' : '';
}

const columns: Column<Trending & { rank: number }>[] = [
  ...rankAndGameColumns<Trending & { rank: number }>(),
  { key: 'genre', header: 'Genre', cell: (g) => g.genre.replace(/_/g, ' '), sort: (g) => g.genre },
  { key: 'ccu', header: 'CCU', cell: (g) => formatCompact(g.ccu), sort: (g) => g.ccu, numeric: true },
  {
    key: 'trend',
    header: 'Trend',
    title: 'Trend score −100..100: mean CCU over the period against the period before',
    cell: (g) => <span className={trendClass(g.trend_score)}>{formatScore(g.trend_score)}</span>,
    sort: (g) => g.trend_score,
    numeric: true,
  },
  {
    key: 'history',
    header: 'CCU over the period',
    cell: (g) => (
      <Sparkline
        values={g.ccu_history}
        label={`${g.name}: CCU from ${formatCompact(g.ccu_history[0])} to ${formatCompact(g.ccu_history.at(-1))}`}
      />
    ),
  },
];

function Overview() {
  const overview = useQuery({
    queryKey: ['market', 'overview'],
    queryFn: () => unwrap(api.GET('/api/market/overview')),
  });
  return (
    <QueryView query={overview} label="Loading the market overview">
      {(o) => (
        <section aria-label="Market overview" className="stack">
          <div className="stats">
            <div className="stat">
              <div className="label">Platform CCU</div>
              <div className="value">{formatCompact(o.platform_ccu)}</div>
              <div className={`note ${o.ccu_change_24h != null && o.ccu_change_24h < 0 ? 'bad' : 'good'}`}>
                {o.ccu_change_24h == null
                  ? 'no 24 h baseline yet'
                  : `${formatPercent(o.ccu_change_24h, { signed: true })} vs 24 h ago`}
              </div>
            </div>
            <div className="stat">
              <div className="label">Active games</div>
              <div className="value">{formatCompact(o.active_games)}</div>
              <div className="note">of {formatCompact(o.total_games)} tracked</div>
            </div>
            {o.top_genres.slice(0, 2).map((g) => (
              <div className="stat" key={g.name}>
                <div className="label">{g.display_name}</div>
                <div className="value">{formatPercent(g.share)}</div>
                <div className="note">of platform CCU · {formatCompact(g.total_ccu)}</div>
              </div>
            ))}
          </div>
          <p className="muted small">
            Updated <Time at={o.computed_at} relative />
          </p>
        </section>
      )}
    </QueryView>
  );
}

export function Component() {
  const [params, setParams] = useSearchParams();
  const period = (PERIODS as readonly string[]).includes(params.get('period') ?? '')
    ? (params.get('period') as Period)
    : '24h';
  const genre = params.get('genre') ?? '';
  const me = useMe();
  const trending = useQuery({
    queryKey: ['trending', period, genre],
    queryFn: () =>
      unwrap(
        api.GET('/api/trending', {
          params: { query: { period, limit: REQUESTED, ...(genre ? { genre } : {}) } },
        }),
      ),
  });
  const set = (key: string, value: string) => {
    const next = new URLSearchParams(params);
    if (value) next.set(key, value);
    else next.delete(key);
    setParams(next, { replace: true });
  };
  return (
    <div className="page">
      <PageHeader title="Market">
        {me.data ? <GameSearch /> : <Link to="/signin?next=/market">Sign in to search games</Link>}
      </PageHeader>
      <Overview />
      <section className="card stack" aria-labelledby="trending-title">
        <div className="page-header">
          <h2 id="trending-title">Trending games</h2>
          <div className="page-actions">
            <fieldset className="segmented" aria-label="Period">
              {PERIODS.map((p) => (
                <button key={p} type="button" aria-pressed={p === period} onClick={() => set('period', p)}>
                  {p}
                </button>
              ))}
            </fieldset>
            <label className="inline">
              <span className="sr-only">Genre</span>
              <select value={genre} onChange={(e) => set('genre', e.target.value)} aria-label="Genre">
                <GenreOptions />
              </select>
            </label>
          </div>
        </div>
        <QueryView
          query={trending}
          label="Loading trending games"
          empty={(t) => (t.games.length === 0 ? <Empty title="No game has CCU in this genre yet." /> : null)}
        >
          {(t) => {
            const notice = capNotice(me.data?.plan ?? null, t.total, t.limit);
            return (
              <>
                {notice ? (
                  <p className="notice" data-testid="plan-cap">
                    {notice} <Link to="/account#plans">See plans</Link>
                  </p>
                ) : null}
                <DataTable
                  testId="trending-table"
                  caption={`Trending games over ${period}`}
                  rows={t.games.map((g, i) => ({ ...g, rank: i + 1 }))}
                  columns={columns}
                  rowKey={(g) => g.place_id}
                />
                <p className="muted small">
                  {formatInteger(t.games.length)} of {formatInteger(t.total)} games · computed{' '}
                  <Time at={t.computed_at} relative />
                </p>
              </>
            );
          }}
        </QueryView>
      </section>
    </div>
  );
}
