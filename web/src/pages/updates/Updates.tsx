/**
 * Update impact: the market's biggest gains and losses from game updates (GET
 * /api/update-impact/recent), the weekday and hour of release that did best (…/timing), and one
 * game's updates with their measured impact (…/{place_id}, at /updates/:placeId).
 */

import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { Link, useParams } from 'react-router';
import { api, type Schemas, unwrap } from '../../api/client';
import { Chart } from '../../components/Chart';
import { type Column, DataTable } from '../../components/DataTable';
import { GenreOptions } from '../../components/GenreSelect';
import { PageHeader } from '../../components/Layout';
import { Empty, Loading, QueryView, SignInNotice } from '../../components/states';
import { Time } from '../../components/Time';
import { formatInteger } from '../../lib/format';
import { useMe } from '../../lib/session';
import { hourBars, impactBars, type Recent, signedPercent, weekdayBars } from './impact-chart';

type Ranked = Recent['items'][number];
type Update = Schemas['UpdateImpact'];

function ImpactCell({ update }: { update: Update }) {
  const i = update.impact;
  if (!i) return <span className="muted">{update.status.replace(/_/g, ' ')}</span>;
  return (
    <span title={`80% interval ${signedPercent(i.ci80.low)} to ${signedPercent(i.ci80.high)}`}>
      <strong className={i.significant ? (i.percent > 0 ? 'good' : 'bad') : ''}>
        {signedPercent(i.percent)}
      </strong>{' '}
      <span className="muted small">
        ({signedPercent(i.ci95.low)} to {signedPercent(i.ci95.high)})
      </span>
    </span>
  );
}

const rankedColumns: Column<Ranked>[] = [
  {
    key: 'game',
    header: 'Game',
    cell: (r) => <Link to={`/updates/${r.place_id}`}>{r.name}</Link>,
    sort: (r) => r.name.toLowerCase(),
  },
  { key: 'genre', header: 'Genre', cell: (r) => r.genre.replace(/_/g, ' '), sort: (r) => r.genre },
  {
    key: 'released',
    header: 'Released',
    cell: (r) => <Time at={r.update.released_at} />,
    sort: (r) => r.update.released_at,
  },
  {
    key: 'impact',
    header: 'Impact on CCU (95% interval)',
    title: 'The 7 days after the release day against a forecast fitted on the days before it',
    cell: (r) => <ImpactCell update={r.update} />,
    sort: (r) => r.update.impact?.percent ?? null,
    numeric: true,
  },
  {
    key: 'significant',
    header: 'Significant',
    cell: (r) => (r.update.impact?.significant ? 'yes' : 'no'),
    sort: (r) => (r.update.impact?.significant ? 1 : 0),
  },
];

function Method({ text }: { text: string }) {
  return (
    <details className="card">
      <summary>
        <h2 className="inline-heading">How the impact is measured</h2>
      </summary>
      <p className="small">{text}</p>
    </details>
  );
}

function MarketUpdates() {
  const [direction, setDirection] = useState<'gains' | 'losses'>('gains');
  const [days, setDays] = useState(30);
  const [genre, setGenre] = useState('');
  const query = { direction, days, limit: 50, ...(genre ? { genre } : {}) };
  const recent = useQuery({
    queryKey: ['update-impact', 'recent', query],
    queryFn: () => unwrap(api.GET('/api/update-impact/recent', { params: { query } })),
  });
  const timing = useQuery({
    queryKey: ['update-impact', 'timing', genre],
    queryFn: () =>
      unwrap(api.GET('/api/update-impact/timing', { params: { query: genre ? { genre } : {} } })),
  });
  return (
    <>
      <section className="card stack" aria-labelledby="recent-title">
        <h2 id="recent-title">{direction === 'gains' ? 'Biggest gains' : 'Biggest losses'} from updates</h2>
        <fieldset className="row">
          <legend className="sr-only">Filters</legend>
          <label>
            Show{' '}
            <select value={direction} onChange={(e) => setDirection(e.target.value as 'gains' | 'losses')}>
              <option value="gains">Gains</option>
              <option value="losses">Losses</option>
            </select>
          </label>
          <label>
            Released in the last{' '}
            <select value={days} onChange={(e) => setDays(Number(e.target.value))}>
              <option value={30}>30 days</option>
              <option value={90}>90 days</option>
              <option value={365}>365 days</option>
            </select>
          </label>
          <label>
            Genre{' '}
            <select value={genre} onChange={(e) => setGenre(e.target.value)}>
              <GenreOptions />
            </select>
          </label>
        </fieldset>
        <QueryView
          query={recent}
          label="Ranking updates"
          empty={(d) =>
            d.items.length === 0 ? (
              <Empty title="No measured update in this window.">
                An update is measured once the 7 days after its release day have passed.
              </Empty>
            ) : null
          }
        >
          {(d) => (
            <>
              <DataTable
                testId="update-impact-table"
                caption="Measured updates ranked by their impact on CCU"
                rows={d.items}
                columns={rankedColumns}
                rowKey={(r) => `${r.place_id}-${r.update.released_at}`}
              />
              <p className="muted small" data-testid="update-plan-cap">
                Up to {formatInteger(d.limit_cap)} per page on your plan.
              </p>
            </>
          )}
        </QueryView>
      </section>
      <section className="card stack" aria-labelledby="timing-title">
        <h2 id="timing-title">When to release</h2>
        <QueryView query={timing} label="Grouping updates by release time">
          {(t) => (
            <div className="stack" data-testid="update-timing">
              <p className="small">
                {formatInteger(t.updates)} measured updates since <Time at={t.since} />.{' '}
                {t.best_weekday === null ? (
                  `No weekday has the ${t.min_updates} updates it takes to be named best yet.`
                ) : (
                  <>
                    Best weekday: <strong>{t.by_weekday[t.best_weekday]!.name}</strong> (median{' '}
                    {signedPercent(t.by_weekday[t.best_weekday]!.median_percent)},{' '}
                    {formatInteger(t.by_weekday[t.best_weekday]!.updates)} updates)
                  </>
                )}
                {t.best_hour === null ? null : (
                  <>
                    ; best hour: <strong>{String(t.best_hour).padStart(2, '0')}:00 UTC</strong>
                  </>
                )}
                .
              </p>
              <Chart
                label="Median impact of updates by weekday of release"
                option={weekdayBars(t.by_weekday)}
                testId="update-weekday-chart"
              />
              <Chart
                label="Median impact of updates by UTC hour of release"
                option={hourBars(t.by_hour)}
                height={220}
              />
            </div>
          )}
        </QueryView>
      </section>
      {recent.data ? <Method text={recent.data.method} /> : null}
    </>
  );
}

const gameColumns: Column<Update>[] = [
  {
    key: 'released',
    header: 'Released',
    cell: (u) => <Time at={u.released_at} />,
    sort: (u) => u.released_at,
  },
  {
    key: 'impact',
    header: 'Impact on CCU (95% interval)',
    cell: (u) => <ImpactCell update={u} />,
    sort: (u) => u.impact?.percent ?? null,
    numeric: true,
  },
  {
    key: 'ccu',
    header: 'Mean CCU, observed vs expected',
    cell: (u) =>
      u.impact
        ? `${formatInteger(Math.round(u.impact.observed_mean_ccu))} vs ${formatInteger(Math.round(u.impact.counterfactual_mean_ccu))}`
        : '—',
  },
  {
    key: 'note',
    header: 'Note',
    cell: (u) =>
      u.status === 'measuring' ? (
        <>
          measured from <Time at={u.measurable_from} />
        </>
      ) : u.overlapping_update ? (
        'another update overlaps'
      ) : (
        ''
      ),
  },
];

function GameUpdates({ placeId }: { placeId: number }) {
  const game = useQuery({
    queryKey: ['update-impact', 'game', placeId],
    queryFn: () =>
      unwrap(
        api.GET('/api/update-impact/{place_id}', {
          params: { path: { place_id: placeId }, query: { limit: 50 } },
        }),
      ),
  });
  return (
    <QueryView query={game} label="Loading the game's updates">
      {(g) => (
        <>
          <PageHeader title={`${g.name}: updates`} />
          <p className="muted page-intro">
            <Link to={`/games/${g.place_id}`}>Game detail</Link> · {g.genre.replace(/_/g, ' ')}
          </p>
          <section className="card stack" aria-labelledby="game-updates-title">
            <h2 id="game-updates-title">Every update seen</h2>
            {g.updates.length === 0 ? (
              <Empty title="No update seen yet.">
                The collector records one when the game’s update time moves on.
              </Empty>
            ) : (
              <>
                {g.updates.some((u) => u.impact) ? (
                  <Chart
                    label="Impact on CCU of each measured update, with its 95% interval"
                    option={impactBars(g.updates)}
                    testId="game-impact-chart"
                  />
                ) : null}
                <DataTable
                  testId="game-updates-table"
                  caption="The game's updates, newest first"
                  rows={g.updates}
                  columns={gameColumns}
                  rowKey={(u) => u.released_at}
                />
              </>
            )}
          </section>
          <Method text={g.method} />
        </>
      )}
    </QueryView>
  );
}

export function Component() {
  const me = useMe();
  const { placeId } = useParams();
  if (me.isPending) return <Loading label="Checking your session" />;
  if (!me.data) {
    return (
      <div className="page">
        <PageHeader title="Update impact" />
        <SignInNotice title="Sign in to see what updates did to games’ players" next="/updates" />
      </div>
    );
  }
  const id = Number(placeId);
  return (
    <div className="page">
      {placeId && Number.isSafeInteger(id) && id > 0 ? (
        <GameUpdates placeId={id} />
      ) : (
        <>
          <PageHeader title="Update impact" />
          <p className="muted page-intro">
            What each game update did to its players: the 7 days after release against a forecast of the game
            without it.
          </p>
          <MarketUpdates />
        </>
      )}
    </div>
  );
}
