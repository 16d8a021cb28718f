/**
 * Keyword intelligence: the keywords of game titles and descriptions ranked by opportunity, demand
 * or growth (GET /api/keywords/trending), a draft title scored against them (…/score-title), and
 * one keyword's games, demand history and related keywords (…/{keyword}, at /keywords/:keyword).
 */

import { useInfiniteQuery, useQuery } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { Link, useParams } from 'react-router';
import { api, unwrap } from '../../api/client';
import { Chart } from '../../components/Chart';
import { type Column, DataTable } from '../../components/DataTable';
import { GenreOptions } from '../../components/GenreSelect';
import { PageHeader } from '../../components/Layout';
import { Empty, ErrorState, Loading, QueryView, SignInNotice } from '../../components/states';
import { formatDay, formatInteger, formatPercent } from '../../lib/format';
import { useMe } from '../../lib/session';
import {
  demandHistory,
  type KeywordDetail,
  opportunityMap,
  type TitleScore,
  type TrendingKeywords,
} from './keyword-chart';

type Item = TrendingKeywords['items'][number];
type Sort = 'opportunity' | 'demand' | 'growth';
type Period = '7d' | '30d';
type Trend = Item['trend'];

const keywordPath = (k: string) => `/keywords/${encodeURIComponent(k)}`;

const trendColumns: Column<Item>[] = [
  { key: 'rank', header: '#', cell: (i) => i.rank, sort: (i) => i.rank, numeric: true },
  {
    key: 'keyword',
    header: 'Keyword',
    cell: (i) => <Link to={keywordPath(i.trend.keyword)}>{i.trend.keyword}</Link>,
    sort: (i) => i.trend.keyword,
  },
  {
    key: 'score',
    header: 'Opportunity',
    title: '0–100: demand per game, growth and openness, as the genre score',
    cell: (i) => <strong>{i.trend.opportunity_score}</strong>,
    sort: (i) => i.trend.opportunity_score,
    numeric: true,
  },
  {
    key: 'games',
    header: 'Games (in title)',
    cell: (i) => `${formatInteger(i.trend.games)} (${formatInteger(i.trend.title_games)})`,
    sort: (i) => i.trend.games,
    numeric: true,
  },
  {
    key: 'demand',
    header: 'Demand (CCU)',
    title: "Σ of its games' mean daily CCU over the period",
    cell: (i) => formatInteger(Math.round(i.trend.demand)),
    sort: (i) => i.trend.demand,
    numeric: true,
  },
  {
    key: 'per-game',
    header: 'CCU per game',
    cell: (i) => formatInteger(Math.round(i.trend.demand_per_game)),
    sort: (i) => i.trend.demand_per_game,
    numeric: true,
  },
  {
    key: 'growth',
    header: 'Growth',
    title: 'Demand against the same number of days before',
    cell: (i) => (
      <span
        className={
          i.trend.growth === null ? 'muted' : i.trend.growth > 0 ? 'good' : i.trend.growth < 0 ? 'bad' : ''
        }
      >
        {formatPercent(i.trend.growth, { signed: true })}
      </span>
    ),
    sort: (i) => i.trend.growth,
    numeric: true,
  },
  {
    key: 'top3',
    header: 'Top 3 share',
    cell: (i) => formatPercent(i.trend.top3_share, { digits: 0 }),
    sort: (i) => i.trend.top3_share,
    numeric: true,
  },
];

function Method({ text }: { text: string }) {
  return (
    <details className="card">
      <summary>
        <h2 className="inline-heading">How keywords are found and scored</h2>
      </summary>
      <p className="small">{text}</p>
    </details>
  );
}

function TrendingList() {
  const [period, setPeriod] = useState<Period>('7d');
  const [sort, setSort] = useState<Sort>('opportunity');
  const [genre, setGenre] = useState('');
  const query = { period, sort, limit: 50, ...(genre ? { genre } : {}) };
  const list = useInfiniteQuery({
    queryKey: ['keywords', 'trending', query],
    queryFn: ({ pageParam }) =>
      unwrap(
        api.GET('/api/keywords/trending', {
          params: { query: { ...query, ...(pageParam ? { cursor: pageParam } : {}) } },
        }),
      ),
    initialPageParam: '',
    getNextPageParam: (last) => last.next_cursor ?? undefined,
  });
  const first = list.data?.pages[0];
  const items = list.data?.pages.flatMap((p) => p.items) ?? [];
  return (
    <>
      <section className="card stack" aria-labelledby="keywords-title">
        <h2 id="keywords-title">Trending keywords</h2>
        <fieldset className="row">
          <legend className="sr-only">Filters</legend>
          <label>
            Period{' '}
            <select value={period} onChange={(e) => setPeriod(e.target.value as Period)}>
              <option value="7d">7 days</option>
              <option value="30d">30 days</option>
            </select>
          </label>
          <label>
            Sort by{' '}
            <select value={sort} onChange={(e) => setSort(e.target.value as Sort)}>
              <option value="opportunity">Opportunity</option>
              <option value="demand">Demand</option>
              <option value="growth">Growth</option>
            </select>
          </label>
          <label>
            Genre{' '}
            <select value={genre} onChange={(e) => setGenre(e.target.value)}>
              <GenreOptions />
            </select>
          </label>
        </fieldset>
        {list.isPending ? (
          <Loading label="Ranking keywords" />
        ) : list.isError ? (
          <ErrorState error={list.error} retry={() => list.refetch()} />
        ) : items.length === 0 ? (
          <Empty title="No keyword list yet.">
            The lists are computed once a day, after the day's readings are rolled up.
          </Empty>
        ) : (
          <>
            <p className="small muted">
              {formatInteger(first?.total)} keywords with at least 3 games, over the{' '}
              {period === '7d' ? '7' : '30'} days to {first?.through_day ? formatDay(first.through_day) : '–'}
              .
            </p>
            <Chart
              label="Keywords by CCU per game (across, log scale) and growth (up), sized by their games"
              option={opportunityMap(items.slice(0, 30))}
              testId="keyword-map"
              height={320}
            />
            <DataTable
              testId="keywords-table"
              caption="Keywords of game titles and descriptions"
              rows={items}
              columns={trendColumns}
              rowKey={(i) => i.trend.keyword}
            />
            <p className="row">
              {list.hasNextPage ? (
                <button
                  type="button"
                  className="button"
                  onClick={() => list.fetchNextPage()}
                  disabled={list.isFetchingNextPage}
                >
                  {list.isFetchingNextPage ? 'Loading…' : 'Show more'}
                </button>
              ) : null}
              <span className="muted small" data-testid="keywords-plan-cap">
                Up to {formatInteger(first?.limit_cap)} per page on your plan.
              </span>
            </p>
          </>
        )}
      </section>
      {first ? <Method text={first.method} /> : null}
    </>
  );
}

function trendSummary(t: Trend | null): string {
  if (!t) return 'under 3 games: no score';
  return `score ${t.opportunity_score}, ${formatInteger(Math.round(t.demand_per_game))} CCU per game, growth ${formatPercent(t.growth, { signed: true })}`;
}

function TitleResult({ r }: { r: TitleScore }) {
  return (
    <div className="stack" data-testid="title-score">
      {r.clone_risk ? (
        <p className="notice" role="status">
          <strong>Clone risk:</strong> a game of this genre already has a name this close (similarity ≥ 0.8).
        </p>
      ) : null}
      <p>
        Mean opportunity of its listed keywords:{' '}
        <strong>{r.mean_opportunity_score === null ? 'none listed' : r.mean_opportunity_score}</strong>
      </p>
      <ul className="stack-tight">
        {r.keywords.map((k) => (
          <li key={k.keyword}>
            {k.games > 0 ? (
              <Link to={keywordPath(k.keyword)}>{k.keyword}</Link>
            ) : (
              <strong>{k.keyword}</strong>
            )}
            : {formatInteger(k.games)} games of the genre ({formatInteger(k.title_games)} in the title);{' '}
            {trendSummary(k.trend)}
          </li>
        ))}
      </ul>
      {r.closest_titles.length > 0 ? (
        <>
          <h3>Closest existing titles</h3>
          <ul className="stack-tight" data-testid="closest-titles">
            {r.closest_titles.map((c) => (
              <li key={c.place_id}>
                <Link to={`/games/${c.place_id}`}>{c.name}</Link> by {c.creator}: similarity{' '}
                {c.similarity.toFixed(2)}, {formatInteger(c.ccu)} CCU
              </li>
            ))}
          </ul>
        </>
      ) : (
        <p className="muted">No game of the genre has a similar name.</p>
      )}
    </div>
  );
}

function ScoreTitle() {
  const [title, setTitle] = useState('');
  const [genre, setGenre] = useState('');
  const [asked, setAsked] = useState<{ title: string; genre: string } | null>(null);
  const score = useQuery({
    queryKey: ['keywords', 'score-title', asked],
    queryFn: () => unwrap(api.GET('/api/keywords/score-title', { params: { query: asked! } })),
    enabled: asked !== null,
  });
  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (title.trim() && genre) setAsked({ title: title.trim(), genre });
  };
  return (
    <section className="card stack" aria-labelledby="score-title-heading">
      <h2 id="score-title-heading">Score a title</h2>
      <form className="row" onSubmit={submit}>
        <label>
          Draft title{' '}
          <input value={title} maxLength={120} required onChange={(e) => setTitle(e.target.value)} />
        </label>
        <label>
          Genre of the title{' '}
          <select value={genre} required onChange={(e) => setGenre(e.target.value)}>
            <GenreOptions allLabel="Choose a genre" />
          </select>
        </label>
        <button type="submit" className="button primary">
          Score
        </button>
      </form>
      {asked === null ? null : (
        <QueryView query={score} label="Scoring the title">
          {(r) => <TitleResult r={r} />}
        </QueryView>
      )}
    </section>
  );
}

const gameColumns: Column<KeywordDetail['games'][number]>[] = [
  {
    key: 'game',
    header: 'Game',
    cell: (g) => <Link to={`/games/${g.place_id}`}>{g.name}</Link>,
    sort: (g) => g.name.toLowerCase(),
  },
  { key: 'creator', header: 'Creator', cell: (g) => g.creator, sort: (g) => g.creator },
  { key: 'genre', header: 'Genre', cell: (g) => g.genre.replace(/_/g, ' '), sort: (g) => g.genre },
  { key: 'ccu', header: 'CCU', cell: (g) => formatInteger(g.ccu), sort: (g) => g.ccu, numeric: true },
  { key: 'where', header: 'Where', cell: (g) => (g.in_title ? 'title' : 'description') },
];

function KeywordPage({ keyword }: { keyword: string }) {
  const detail = useInfiniteQuery({
    queryKey: ['keywords', 'detail', keyword],
    queryFn: ({ pageParam }) =>
      unwrap(
        api.GET('/api/keywords/{keyword}', {
          params: { path: { keyword }, query: { limit: 50, ...(pageParam ? { cursor: pageParam } : {}) } },
        }),
      ),
    initialPageParam: '',
    getNextPageParam: (last) => last.next_cursor ?? undefined,
  });
  if (detail.isPending) return <Loading label="Loading the keyword" />;
  if (detail.isError) return <ErrorState error={detail.error} retry={() => detail.refetch()} />;
  const k = detail.data.pages[0]!;
  const games = detail.data.pages.flatMap((p) => p.games);
  return (
    <>
      <PageHeader title={`Keyword: ${k.keyword}`} />
      <p className="muted page-intro">
        <Link to="/keywords">All keywords</Link> · {formatInteger(k.games_total)} games carry it (
        {formatInteger(k.title_games_total)} in the title)
      </p>
      <section className="card stack" aria-labelledby="keyword-trend">
        <h2 id="keyword-trend">Demand</h2>
        <p data-testid="keyword-trend">
          {k.trend
            ? `Over the 7 days to ${k.through_day ? formatDay(k.through_day) : '–'}: ${formatInteger(Math.round(k.trend.demand))} CCU across ${formatInteger(k.trend.games)} games, ${trendSummary(k.trend)}; the 3 busiest hold ${formatPercent(k.trend.top3_share, { digits: 0 })}.`
            : 'Fewer than 3 games with readings carry it: it is in no list.'}
        </p>
        {k.history.length > 0 ? (
          <Chart
            label={`Daily demand of "${k.keyword}" (sum of its games' mean CCU) and its games, last 90 days`}
            option={demandHistory(k.history)}
            testId="keyword-history-chart"
          />
        ) : null}
      </section>
      {k.related.length > 0 ? (
        <section className="card stack" aria-labelledby="keyword-related">
          <h2 id="keyword-related">Related keywords</h2>
          <ul className="chips" data-testid="related-keywords">
            {k.related.map((r) => (
              <li key={r.keyword}>
                <Link
                  to={keywordPath(r.keyword)}
                  title={`${r.shared_games} shared games, Jaccard ${r.jaccard}`}
                >
                  {r.keyword} ({formatInteger(r.shared_games)})
                </Link>
              </li>
            ))}
          </ul>
        </section>
      ) : null}
      <section className="card stack" aria-labelledby="keyword-games">
        <h2 id="keyword-games">Games using it</h2>
        <DataTable
          testId="keyword-games-table"
          caption={`Games whose title or description carries "${k.keyword}", busiest first`}
          rows={games}
          columns={gameColumns}
          rowKey={(g) => g.universe_id}
        />
        {detail.hasNextPage ? (
          <p>
            <button
              type="button"
              className="button"
              onClick={() => detail.fetchNextPage()}
              disabled={detail.isFetchingNextPage}
            >
              {detail.isFetchingNextPage ? 'Loading…' : 'Show more games'}
            </button>
          </p>
        ) : null}
      </section>
      <Method text={k.method} />
    </>
  );
}

export function Component() {
  const me = useMe();
  const { keyword } = useParams();
  if (me.isPending) return <Loading label="Checking your session" />;
  if (!me.data) {
    return (
      <div className="page">
        <PageHeader title="Keywords" />
        <SignInNotice title="Sign in to see which keywords carry demand" next="/keywords" />
      </div>
    );
  }
  return (
    <div className="page">
      {keyword ? (
        <KeywordPage keyword={keyword} />
      ) : (
        <>
          <PageHeader title="Keywords" />
          <p className="muted page-intro">
            The words and phrases of game titles and descriptions: how much demand they carry, how fast it
            grows, and how crowded they are.
          </p>
          <ScoreTitle />
          <TrendingList />
        </>
      )}
    </div>
  );
}
