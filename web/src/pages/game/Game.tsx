/**
 * A game: its header figures, the CCU chart (hourly or daily, the forecast on the daily zoom),
 * the ML prediction, the genre benchmark, the revenue simulator, clones, and Track.
 */
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useMemo, useState } from 'react';
import { Link, useParams, useSearchParams } from 'react-router';
import { ApiError, api, type Schemas, unwrap } from '../../api/client';
import { Chart } from '../../components/Chart';
import { FollowButton } from '../../components/FollowButton';
import { PageHeader } from '../../components/Layout';
import { Empty, ErrorState, Loading, QueryView, UpgradeCard } from '../../components/states';
import { Time } from '../../components/Time';
import { formatCompact, formatInteger, formatPercent, formatScore, formatUsd } from '../../lib/format';
import { ME_KEY, TRACKED_KEY, useMe, useTracked } from '../../lib/session';
import { ccuChartOption } from './ccu-chart';

type Game = Schemas['GameDetail'];
type Zoom = 'hourly' | 'daily';

function Stat({ label, value, note }: { label: string; value: string; note?: string }) {
  return (
    <div className="stat">
      <div className="label">{label}</div>
      <div className="value">{value}</div>
      {note ? <div className="note">{note}</div> : null}
    </div>
  );
}

function TrackButton({ game }: { game: Game }) {
  const me = useMe();
  const client = useQueryClient();
  const list = useTracked(Boolean(me.data));
  const tracked = list.data?.tracked_games.includes(game.universe_id) ?? false;
  const [result, setResult] = useState<{ count: number; limit: number } | null>(null);
  const toggle = useMutation({
    mutationFn: async () => {
      const path = { universe_id: game.universe_id };
      if (tracked) {
        await unwrap(api.DELETE('/api/track/{universe_id}', { params: { path } }));
        return null;
      }
      const r = await unwrap(api.POST('/api/track/{universe_id}', { params: { path } }));
      return { count: r.tracked_count, limit: r.limit };
    },
    onSuccess: (r) => {
      setResult(r);
      // The button and the count change together, before the list is read again.
      client.setQueryData(TRACKED_KEY, (old: typeof list.data) =>
        old
          ? {
              ...old,
              tracked_games: r
                ? [...old.tracked_games, game.universe_id]
                : old.tracked_games.filter((u) => u !== game.universe_id),
              tracked_count: r ? r.count : old.tracked_count - 1,
            }
          : old,
      );
      void client.invalidateQueries({ queryKey: TRACKED_KEY });
      void client.invalidateQueries({ queryKey: ME_KEY });
    },
  });
  if (!me.data) {
    return (
      <Link className="button" to={`/signin?next=/games/${game.place_id}`}>
        Sign in to track
      </Link>
    );
  }
  const count = result?.count ?? list.data?.tracked_count ?? 0;
  const limit = result?.limit ?? list.data?.limit;
  return (
    <div className="row" style={{ alignItems: 'center' }}>
      <button
        type="button"
        className={tracked ? 'button' : 'button primary'}
        onClick={() => toggle.mutate()}
        disabled={toggle.isPending}
        data-testid="track-button"
      >
        {tracked ? 'Untrack' : 'Track'}
      </button>
      <span className="muted small" data-testid="track-count">
        {limit === undefined ? `${count} tracked` : `${count} of ${limit} tracked`}
      </span>
      {toggle.error ? <ErrorState error={toggle.error} /> : null}
    </div>
  );
}

function CcuChart({ game }: { game: Game }) {
  const [params, setParams] = useSearchParams();
  const zoom: Zoom = params.get('zoom') === 'hourly' ? 'hourly' : 'daily';
  const me = useMe();
  const daily = useQuery({
    queryKey: ['game', game.place_id, 'daily'],
    queryFn: () =>
      unwrap(
        api.GET('/api/game/{place_id}', {
          params: { path: { place_id: game.place_id }, query: { history: 'daily' } },
        }),
      ),
    enabled: zoom === 'daily',
  });
  const forecast = useQuery({
    queryKey: ['forecast', game.place_id, me.data?.plan ?? 'anonymous'],
    queryFn: () =>
      unwrap(api.GET('/api/forecast/{place_id}', { params: { path: { place_id: game.place_id } } })),
    enabled: Boolean(me.data),
  });
  const history = zoom === 'hourly' ? game.ccu_history : (daily.data?.ccu_history ?? []);
  const points = forecast.data?.forecast ?? null;
  const option = useMemo(() => ccuChartOption(history, points, zoom), [history, points, zoom]);
  const gated = forecast.error instanceof ApiError && forecast.error.code === 'plan_upgrade_required';
  const bounded = points?.some((p) => p.lower_bound != null) ?? false;
  return (
    <section className="card stack" aria-labelledby="ccu-title">
      <div className="page-header">
        <h2 id="ccu-title">Concurrent players</h2>
        <fieldset className="segmented" aria-label="Zoom">
          {(['hourly', 'daily'] as const).map((z) => (
            <button
              key={z}
              type="button"
              aria-pressed={z === zoom}
              onClick={() => {
                const next = new URLSearchParams(params);
                next.set('zoom', z);
                setParams(next, { replace: true });
              }}
            >
              {z === 'hourly' ? 'Last 24 h' : '30 days + forecast'}
            </button>
          ))}
        </fieldset>
      </div>
      {zoom === 'daily' && daily.isPending ? <Loading label="Loading the daily history" /> : null}
      {zoom === 'daily' && daily.error ? (
        <ErrorState error={daily.error} retry={() => void daily.refetch()} />
      ) : null}
      {history.length === 0 && !(zoom === 'daily' && daily.isPending) ? (
        <Empty title="No CCU readings for this game yet." />
      ) : (
        <Chart
          option={option}
          height={300}
          testId="ccu-chart"
          label={`${game.name}: ${zoom} mean CCU${points && zoom === 'daily' ? ` and a ${points.length}-day forecast` : ''}`}
        />
      )}
      {zoom === 'daily' ? (
        !me.data ? (
          <p className="notice">
            <Link to={`/signin?next=/games/${game.place_id}`}>Sign in</Link> to see the forecast.
          </p>
        ) : gated ? (
          <div data-testid="forecast-upgrade">
            <UpgradeCard
              plan={(forecast.error as ApiError).requiredPlan ?? 'Builder'}
              feature="The CCU forecast"
            >
              <p>Builder sees 7 days ahead; Studio sees 30 days with the 80% band.</p>
            </UpgradeCard>
          </div>
        ) : forecast.error ? (
          <ErrorState error={forecast.error} retry={() => void forecast.refetch()} />
        ) : forecast.data ? (
          <p className="muted small" data-testid="forecast-note">
            Forecast: {forecast.data.forecast.length} days ahead
            {bounded
              ? ', with the 80% prediction interval'
              : ' — Builder sees 7 days without the band; Studio sees 30 days with the 80% band'}
            . Model {forecast.data.model_version}, from {forecast.data.history_days} days of history, made{' '}
            <Time at={forecast.data.generated_at} relative />.
          </p>
        ) : forecast.isPending ? (
          <Loading label="Loading the forecast" />
        ) : null
      ) : null}
    </section>
  );
}

function Prediction({ game }: { game: Game }) {
  const p = game.ml_prediction;
  return (
    <section className="card stack" aria-labelledby="prediction-title">
      <h2 id="prediction-title">Prediction</h2>
      <div className="stats">
        <Stat
          label="Trend score (24 h)"
          value={formatScore(p.trend_score)}
          note="−100 falling … +100 rising"
        />
        <Stat
          label="Growth probability"
          value={p.growth_probability == null ? '–' : formatPercent(p.growth_probability, { digits: 0 })}
          note="chance CCU in 7 days beats today's mean"
        />
      </div>
      {p.growth_probability == null ? (
        <p className="muted small">
          The growth probability comes from the forecast: Builder and higher plans see it once the game has
          one.
        </p>
      ) : null}
    </section>
  );
}

function Benchmark({ game }: { game: Game }) {
  const me = useMe();
  const bench = useQuery({
    queryKey: ['benchmark', game.place_id],
    queryFn: () => unwrap(api.POST('/api/benchmark', { body: { place_id: game.place_id } })),
    enabled: Boolean(me.data),
  });
  return (
    <section className="card stack" aria-labelledby="benchmark-title">
      <h2 id="benchmark-title">Against its genre</h2>
      {!me.data ? (
        <p className="muted">Sign in to benchmark this game against its genre.</p>
      ) : (
        <QueryView query={bench} label="Benchmarking">
          {(b) => (
            <>
              <p className="muted small">
                Percentile among {formatInteger(b.genre_games)} {b.genre.replace(/_/g, ' ')} games (100 = the
                best).
              </p>
              <div className="stats" data-testid="benchmark">
                <Stat
                  label="CCU"
                  value={pct(b.metrics.ccu_percentile)}
                  note={`genre mean ${formatCompact(b.genre_averages.avg_ccu)}`}
                />
                <Stat
                  label="Visits"
                  value={pct(b.metrics.visits_percentile)}
                  note={`genre mean ${formatCompact(b.genre_averages.avg_visits)}`}
                />
                <Stat
                  label="Like ratio"
                  value={pct(b.metrics.like_ratio_percentile)}
                  note={`genre mean ${formatPercent(b.genre_averages.avg_like_ratio)}`}
                />
                <Stat label="Game passes" value={pct(b.metrics.gamepass_count_percentile)} />
              </div>
            </>
          )}
        </QueryView>
      )}
    </section>
  );
}

function pct(p: number | null): string {
  return p == null ? '–' : `P${p}`;
}

const GENRES = [
  'action',
  'adventure',
  'education',
  'entertainment',
  'obby_platformer',
  'party_casual',
  'puzzle',
  'rpg',
  'roleplay_avatar_sim',
  'shooter',
  'shopping',
  'simulation',
  'social',
  'sports_racing',
  'strategy',
  'survival',
  'utility_other',
] as const;
type Genre = (typeof GENRES)[number];

function RevenueSimulator({ game }: { game: Game }) {
  const me = useMe();
  const [form, setForm] = useState({
    avg_ccu: String(Math.max(1, game.ccu)),
    gamepass_count: String(game.gamepass_count ?? 3),
    avg_gamepass_price: '199',
    genre: ((GENRES as readonly string[]).includes(game.genre) ? game.genre : 'utility_other') as Genre,
  });
  const estimate = useMutation({
    mutationFn: (body: {
      avg_ccu: number;
      gamepass_count: number;
      avg_gamepass_price: number;
      genre: Genre;
    }) => unwrap(api.POST('/api/revenue-simulator', { body })),
  });
  const submit = (e: FormEvent) => {
    e.preventDefault();
    estimate.mutate({
      avg_ccu: Number(form.avg_ccu),
      gamepass_count: Number(form.gamepass_count),
      avg_gamepass_price: Number(form.avg_gamepass_price),
      genre: form.genre,
    });
  };
  const field = (key: 'avg_ccu' | 'gamepass_count' | 'avg_gamepass_price', label: string, min: number) => (
    <label>
      {label}
      <input
        type="number"
        min={min}
        step="1"
        required
        value={form[key]}
        onChange={(e) => setForm((f) => ({ ...f, [key]: e.target.value }))}
      />
    </label>
  );
  const r = estimate.data;
  return (
    <section className="card stack" aria-labelledby="revenue-title">
      <h2 id="revenue-title">Revenue simulator</h2>
      {!me.data ? (
        <p className="muted">Sign in to estimate game-pass revenue.</p>
      ) : (
        <>
          <form className="row" onSubmit={submit} data-testid="revenue-form">
            {field('avg_ccu', 'Average CCU', 0)}
            {field('gamepass_count', 'Game passes', 0)}
            {field('avg_gamepass_price', 'Average pass price (R$)', 1)}
            <label>
              Genre
              <select
                value={form.genre}
                onChange={(e) => setForm((f) => ({ ...f, genre: e.target.value as Genre }))}
              >
                {GENRES.map((g) => (
                  <option key={g} value={g}>
                    {g.replace(/_/g, ' ')}
                  </option>
                ))}
              </select>
            </label>
            <button type="submit" className="button primary" disabled={estimate.isPending}>
              Estimate
            </button>
          </form>
          {estimate.error ? <ErrorState error={estimate.error} /> : null}
          {r ? (
            <div className="stack" data-testid="revenue-result">
              <div className="stats">
                <Stat
                  label="Per month"
                  value={formatUsd(r.monthly_estimate)}
                  note={`${r.confidence} confidence`}
                />
                <Stat label="Per year" value={formatUsd(r.yearly_estimate)} />
                <Stat label="Genre average" value={formatUsd(r.genre_avg_revenue)} note="per month" />
              </div>
              <details>
                <summary>How this estimate is made</summary>
                <div className="table-scroll">
                  <table className="data-table">
                    <caption className="sr-only">Assumptions and breakdown</caption>
                    <tbody>
                      <tr>
                        <th scope="row">Daily players (DAU)</th>
                        <td className="num">{formatInteger(r.breakdown.dau)}</td>
                        <td className="muted small wrap">
                          CCU × {r.assumptions.hours_per_day} h ÷ {r.assumptions.session_hours} h per session
                        </td>
                      </tr>
                      <tr>
                        <th scope="row">Paying players per month</th>
                        <td className="num">{formatInteger(r.breakdown.monthly_payers)}</td>
                        <td className="muted small wrap">
                          {formatPercent(r.assumptions.payers_per_dau, { digits: 2 })} of DAU
                        </td>
                      </tr>
                      <tr>
                        <th scope="row">Passes per payer</th>
                        <td className="num">{formatScore(r.breakdown.purchases_per_payer, 2)}</td>
                        <td className="muted small wrap">assumed {r.assumptions.passes_per_payer}</td>
                      </tr>
                      <tr>
                        <th scope="row">Robux spent</th>
                        <td className="num">{formatInteger(r.breakdown.robux_spent)}</td>
                        <td className="muted small wrap">
                          creator keeps {formatPercent(r.assumptions.creator_share, { digits: 0 })}
                        </td>
                      </tr>
                      <tr>
                        <th scope="row">Creator Robux</th>
                        <td className="num">{formatInteger(r.breakdown.creator_robux)}</td>
                        <td className="muted small wrap">
                          DevEx at ${r.assumptions.devex_usd_per_robux} per Robux
                        </td>
                      </tr>
                    </tbody>
                  </table>
                </div>
                <p className="muted small">
                  Inputs compared with the genre: CCU {r.typicality.avg_ccu.replace(/_/g, ' ')}, pass count{' '}
                  {r.typicality.gamepass_count.replace(/_/g, ' ')}, price{' '}
                  {r.typicality.avg_gamepass_price.replace(/_/g, ' ')}.
                </p>
              </details>
            </div>
          ) : null}
        </>
      )}
    </section>
  );
}

function Clones({ game }: { game: Game }) {
  return (
    <section className="card stack" aria-labelledby="clones-title">
      <h2 id="clones-title">Possible clones</h2>
      {game.clones.length === 0 ? (
        <p className="muted">No near-duplicate of this game in its genre.</p>
      ) : (
        <ul>
          {game.clones.map((c) => (
            <li key={c.place_id}>
              <Link to={`/games/${c.place_id}`}>{c.name}</Link>{' '}
              <span className="muted small">by {c.creator}</span> ·{' '}
              {formatPercent(c.similarity, { digits: 0 })} similar
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}

export function Component() {
  const { placeId } = useParams();
  const id = Number(placeId);
  const game = useQuery({
    queryKey: ['game', id],
    queryFn: () => unwrap(api.GET('/api/game/{place_id}', { params: { path: { place_id: id } } })),
    enabled: Number.isInteger(id) && id > 0,
  });
  if (!Number.isInteger(id) || id <= 0) {
    return (
      <div className="page">
        <ErrorState error={new Error(`“${placeId}” is not a place id.`)} />
      </div>
    );
  }
  return (
    <div className="page">
      <QueryView query={game} label="Loading the game">
        {(g) => (
          <>
            <PageHeader title={g.name}>
              <TrackButton game={g} />
              <FollowButton target={{ kind: 'game', place_id: g.place_id }} label={g.name} />
            </PageHeader>
            <p className="muted">
              by{' '}
              {g.creator_id === null ? (
                g.creator
              ) : (
                <Link to={`/intelligence/creators/${g.creator_id}?type=${g.creator_type.toLowerCase()}`}>
                  {g.creator}
                </Link>
              )}{' '}
              ({g.creator_type.toLowerCase()}) · {g.genre.replace(/_/g, ' ')} · place {g.place_id} · universe{' '}
              {g.universe_id}
              {g.observed_at ? (
                <>
                  {' '}
                  · read <Time at={g.observed_at} relative />
                </>
              ) : null}{' '}
              · <Link to={`/updates/${g.place_id}`}>its updates and their impact</Link>
            </p>
            <div className="stats" data-testid="game-stats">
              <Stat
                label="Playing now"
                value={formatCompact(g.ccu)}
                note={g.max_players ? `${g.max_players} per server` : undefined}
              />
              <Stat label="Visits" value={formatCompact(g.visits)} />
              <Stat
                label="Likes"
                value={formatCompact(g.likes)}
                note={g.like_ratio == null ? undefined : `${formatPercent(g.like_ratio)} liked`}
              />
              <Stat label="Favourites" value={formatCompact(g.favorites)} />
            </div>
            <CcuChart game={g} />
            <div className="grid-2">
              <Prediction game={g} />
              <Benchmark game={g} />
            </div>
            <RevenueSimulator game={g} />
            <Clones game={g} />
            {g.description ? (
              <section className="card">
                <h2>About</h2>
                <p style={{ whiteSpace: 'pre-line' }}>{g.description}</p>
              </section>
            ) : null}
          </>
        )}
      </QueryView>
    </div>
  );
}
