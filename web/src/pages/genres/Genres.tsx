/**
 * Genres: where to build next. The opportunity map as RoLearn draws it (saturation on x with the
 * crowded divider at 0.6, growth on y, bubble size = demand per game, colour = entry verdict), every
 * score component in a sortable table, and launch timing per theme. Anonymous and Explorer callers
 * get the free shape (names and totals, `locked: true`): they see that shape with an upgrade card.
 */
import { useQuery } from '@tanstack/react-query';
import { useEffect, useMemo, useState } from 'react';
import { Link } from 'react-router';
import { api, type Schemas, unwrap } from '../../api/client';
import { Chart } from '../../components/Chart';
import { type Column, DataTable } from '../../components/DataTable';
import type { EChartsCoreOption } from '../../components/echarts';
import { PageHeader } from '../../components/Layout';
import { Empty, QueryView, UpgradeCard } from '../../components/states';
import { genreBubbleSeries, VERDICT_LABELS } from '../../lib/chart-data';
import { formatCompact, formatInteger, formatPercent, formatScore } from '../../lib/format';
import { useMe } from '../../lib/session';
import { GenreTiming } from './GenreTiming';
import { CROWDED_AT, genreChartOption } from './genre-chart';

type Genre = Schemas['GenreOpportunity'];

function Verdict({ verdict }: { verdict: Genre['entry_verdict'] }) {
  if (!verdict) return <span className="muted">–</span>;
  return <span className={`badge verdict verdict-${verdict}`}>{VERDICT_LABELS[verdict] ?? verdict}</span>;
}

const nameColumn: Column<Genre> = {
  key: 'name',
  header: 'Genre',
  cell: (g) => <strong>{g.display_name}</strong>,
  sort: (g) => g.display_name.toLowerCase(),
};
const totalColumns: Column<Genre>[] = [
  {
    key: 'games',
    header: 'Games',
    title: 'Collected games filed under the genre',
    cell: (g) => formatInteger(g.total_games),
    sort: (g) => g.total_games,
    numeric: true,
  },
  {
    key: 'ccu',
    header: 'Total CCU',
    title: 'Concurrent users across every game of the genre',
    cell: (g) => formatCompact(g.total_ccu),
    sort: (g) => g.total_ccu,
    numeric: true,
  },
];

const pct = (v: number | null) => formatPercent(v);

const scoreColumns: Column<Genre>[] = [
  {
    key: 'avg_ccu',
    header: 'Avg CCU',
    title: 'Mean CCU per game',
    cell: (g) => formatCompact(g.avg_ccu),
    sort: (g) => g.avg_ccu,
    numeric: true,
  },
  {
    key: 'demand',
    header: 'Demand / game',
    title: 'Genre CCU per active game (CCU ≥ 10): how many players each game can expect',
    cell: (g) => formatCompact(g.demand_per_game),
    sort: (g) => g.demand_per_game,
    numeric: true,
  },
  {
    key: 'growth',
    header: 'Growth (7 d)',
    title: 'Genre CCU now against the same time 7 days ago; – when there is no baseline yet',
    cell: (g) => (
      <span className={g.growth_rate == null ? 'muted' : g.growth_rate < 0 ? 'bad' : 'good'}>
        {g.growth_rate == null ? 'no baseline' : formatPercent(g.growth_rate, { signed: true })}
      </span>
    ),
    sort: (g) => g.growth_rate,
    numeric: true,
  },
  {
    key: 'saturation',
    header: 'Saturation',
    title: `0.5 is the platform norm; ${CROWDED_AT} or more is crowded`,
    cell: (g) => (
      <span className={g.saturation_index != null && g.saturation_index >= CROWDED_AT ? 'warn' : undefined}>
        {formatScore(g.saturation_index, 2)}
      </span>
    ),
    sort: (g) => g.saturation_index,
    numeric: true,
  },
  {
    key: 'top3',
    header: 'Top 3 share',
    title: 'Share of the genre’s CCU held by its 3 biggest games',
    cell: (g) => pct(g.top3_share),
    sort: (g) => g.top3_share,
    numeric: true,
  },
  {
    key: 'newcomers',
    header: 'Newcomer share',
    title: 'Among the top 20 games, the share of CCU held by games created in the last 365 days',
    cell: (g) => pct(g.newcomer_share),
    sort: (g) => g.newcomer_share,
    numeric: true,
  },
  {
    key: 'monetization',
    header: 'Monetization depth',
    title: 'Median game passes × median pass price (Robux) per 1,000 CCU',
    cell: (g) => formatCompact(g.monetization_depth),
    sort: (g) => g.monetization_depth,
    numeric: true,
  },
  {
    key: 'score',
    header: 'Score',
    title: 'Opportunity score 0–100: 40% demand, 35% growth, 25% openness to newcomers',
    cell: (g) => <strong>{formatScore(g.opportunity_score, 0)}</strong>,
    sort: (g) => g.opportunity_score,
    numeric: true,
  },
  {
    key: 'verdict',
    header: 'Verdict',
    cell: (g) => <Verdict verdict={g.entry_verdict} />,
    sort: (g) => (g.entry_verdict ? Object.keys(VERDICT_LABELS).indexOf(g.entry_verdict) : null),
  },
];

const recommendationColumn: Column<Genre> = {
  key: 'recommendation',
  header: 'Recommendation',
  cell: (g) => <span className="genre-recommendation">{g.recommendation ?? '–'}</span>,
};

const NARROW = '(max-width: 600px)';

/** True on a phone-sized viewport (follows rotation and resizing). */
function useNarrow(): boolean {
  const [narrow, setNarrow] = useState(() => window.matchMedia?.(NARROW).matches ?? false);
  useEffect(() => {
    const media = window.matchMedia?.(NARROW);
    const onChange = () => setNarrow(media.matches);
    media?.addEventListener('change', onChange);
    return () => media?.removeEventListener('change', onChange);
  }, []);
  return narrow;
}

function OpportunityMap({ genres }: { genres: Genre[] }) {
  const series = useMemo(() => genreBubbleSeries(genres), [genres]);
  const compact = useNarrow();
  const option = useMemo<EChartsCoreOption>(() => genreChartOption(series, { compact }), [series, compact]);
  const unknownGrowth = series.flatMap((s) => s.data).filter((d) => !d.growthKnown);
  if (series.length === 0) {
    return <Empty title="No genre has been scored yet.">Scores appear after the first collection.</Empty>;
  }
  return (
    <>
      <Chart
        testId="genre-chart"
        option={option}
        height={compact ? 360 : 420}
        label={`Opportunity map of ${series.reduce((n, s) => n + s.data.length, 0)} genres: saturation across, growth up, bubble size demand per game, colour the entry verdict. The table below lists the same figures.`}
      />
      <ul className="genre-legend small" aria-label="How to read the map">
        <li>
          Right of the dashed line ({CROWDED_AT}) is <strong>crowded</strong>: more games share each player
          than on the platform as a whole (0.5 is the norm).
        </li>
        <li>
          Higher is growing: genre CCU against the same time 7 days ago. Bigger bubbles have more players per
          game.
        </li>
        {unknownGrowth.length > 0 ? (
          <li>
            Hollow rings have no growth figure yet (no reading 7 days ago to compare with), so they are drawn
            on 0%: {unknownGrowth.map((d) => d.name).join(', ')}.
          </li>
        ) : null}
      </ul>
    </>
  );
}

export function Component() {
  const me = useMe();
  const genres = useQuery({
    // The market page asks for the same list (its genre filter): one cache entry for both.
    queryKey: ['genres', 'names'],
    queryFn: () => unwrap(api.GET('/api/genre-opportunities')),
  });
  return (
    <div className="page">
      <PageHeader title="Genres" />
      <p className="muted page-intro">
        Where players are under-served: demand per game, growth, saturation and how open each genre is to
        newcomers.
      </p>
      <QueryView
        query={genres}
        label="Scoring the genres"
        empty={(rows) =>
          rows.length === 0 ? (
            <Empty title="No genre has a collected game yet.">
              The collector fills this within minutes of start-up.
            </Empty>
          ) : null
        }
      >
        {(rows) => {
          const locked = rows.some((g) => g.locked);
          return (
            <>
              <section className="card stack" aria-labelledby="map-title">
                <h2 id="map-title">Opportunity map</h2>
                {locked ? (
                  <div data-testid="genre-upgrade">
                    <UpgradeCard
                      plan="Builder"
                      feature="Genre opportunity scores"
                      title={
                        <>
                          Genre opportunity scores are part of the <strong>Builder</strong> plan
                        </>
                      }
                    >
                      <p>
                        See every genre placed by saturation, growth and demand per game, with its opportunity
                        score, entry verdict and what to build there.{' '}
                        {me.data
                          ? `Your plan: ${me.data.plan}.`
                          : 'Create an account, then pick Builder or above.'}
                      </p>
                    </UpgradeCard>
                  </div>
                ) : (
                  <OpportunityMap genres={rows} />
                )}
              </section>
              <section className="card stack" aria-labelledby="table-title">
                <h2 id="table-title">{locked ? 'Genres by size' : 'Every score component'}</h2>
                {locked ? (
                  <p className="notice small genre-locked-note">
                    Average CCU, demand per game, growth, saturation, top-3 and newcomer shares, monetization
                    depth, the opportunity score, verdict and recommendation are part of the Builder plan.{' '}
                    <Link to="/account#plans">See plans</Link>
                  </p>
                ) : null}
                <div className="genre-table-wrap">
                  <DataTable
                    testId="genre-table"
                    caption={
                      locked
                        ? 'Genres with their games and CCU'
                        : 'Genres with every opportunity score component'
                    }
                    rows={rows}
                    columns={
                      locked
                        ? [nameColumn, ...totalColumns]
                        : [nameColumn, ...totalColumns, ...scoreColumns, recommendationColumn]
                    }
                    rowKey={(g) => g.name}
                    initialSort={locked ? { key: 'ccu', dir: 'desc' } : { key: 'score', dir: 'desc' }}
                  />
                </div>
              </section>
            </>
          );
        }}
      </QueryView>
      <GenreTiming signedIn={Boolean(me.data)} checking={me.isPending} />
    </div>
  );
}
