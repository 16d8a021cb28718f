/** Tracked games: the caller's list with names and CCU, the plan cap, track by search, untrack. */
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { Link } from 'react-router';
import { api, unwrap } from '../../api/client';
import { type Column, DataTable } from '../../components/DataTable';
import { GamePicker } from '../../components/GamePicker';
import { Empty, ErrorState } from '../../components/states';
import { formatCompact } from '../../lib/format';
import { ME_KEY, TRACKED_KEY } from '../../lib/session';
import { gameName } from './queries';
import { type Alert, capLabel, type GameResult, rulesPerGame } from './tracking-data';

interface Row {
  universeId: number;
  game: GameResult | null | undefined;
  rules: number;
}

export function TrackedGames({
  tracked,
  alerts,
  games,
  limit,
  onAddAlert,
}: {
  tracked: number[];
  alerts: Alert[];
  games: Map<number, GameResult | null>;
  limit: number | undefined;
  onAddAlert: (universeId: number) => void;
}) {
  const client = useQueryClient();
  const track = useMutation({
    mutationFn: (universeId: number) =>
      unwrap(api.POST('/api/track/{universe_id}', { params: { path: { universe_id: universeId } } })),
    onSettled: () =>
      Promise.all([
        client.invalidateQueries({ queryKey: TRACKED_KEY }),
        client.invalidateQueries({ queryKey: ME_KEY }),
      ]),
  });
  const untrack = useMutation({
    mutationFn: (universeId: number) =>
      unwrap(api.DELETE('/api/track/{universe_id}', { params: { path: { universe_id: universeId } } })),
    onSettled: () =>
      Promise.all([
        client.invalidateQueries({ queryKey: TRACKED_KEY }),
        client.invalidateQueries({ queryKey: ME_KEY }),
      ]),
  });
  const full = limit !== undefined && tracked.length >= limit;
  const counts = rulesPerGame(alerts);
  const rows: Row[] = tracked.map((id) => ({
    universeId: id,
    game: games.get(id),
    rules: counts.get(id) ?? 0,
  }));
  const confirmUntrack = (row: Row) => {
    const name = gameName(games, row.universeId);
    const rules =
      row.rules > 0 ? ` Its ${row.rules} alert ${row.rules === 1 ? 'rule stays' : 'rules stay'}.` : '';
    if (window.confirm(`Stop tracking ${name}?${rules}`)) untrack.mutate(row.universeId);
  };
  const columns: Column<Row>[] = [
    {
      key: 'name',
      header: 'Game',
      cell: (r) =>
        r.game ? (
          <span>
            <Link to={`/games/${r.game.place_id}`}>{r.game.name}</Link>
            <br />
            <span className="muted small">by {r.game.creator}</span>
          </span>
        ) : (
          <span className="muted">{r.game === null ? `Universe ${r.universeId}` : 'Loading…'}</span>
        ),
      sort: (r) => (r.game?.name ?? '').toLowerCase(),
    },
    {
      key: 'genre',
      header: 'Genre',
      cell: (r) => (r.game ? r.game.genre.replace(/_/g, ' ') : '–'),
      sort: (r) => r.game?.genre ?? null,
    },
    {
      key: 'ccu',
      header: 'CCU',
      cell: (r) => formatCompact(r.game?.ccu),
      sort: (r) => r.game?.ccu ?? null,
      numeric: true,
    },
    { key: 'rules', header: 'Alert rules', cell: (r) => r.rules, sort: (r) => r.rules, numeric: true },
    {
      key: 'actions',
      header: 'Actions',
      cell: (r) => (
        <div className="row tracking-actions">
          <button type="button" className="button" onClick={() => onAddAlert(r.universeId)}>
            Add alert<span className="sr-only"> for {gameName(games, r.universeId)}</span>
          </button>
          <button
            type="button"
            className="button danger"
            disabled={untrack.isPending && untrack.variables === r.universeId}
            onClick={() => confirmUntrack(r)}
          >
            Untrack<span className="sr-only"> {gameName(games, r.universeId)}</span>
          </button>
        </div>
      ),
    },
  ];
  return (
    <section className="card stack" aria-labelledby="tracked-title">
      <div className="page-header">
        <h2 id="tracked-title">Tracked games</h2>
        <span className={full ? 'badge warn' : 'badge'} data-testid="tracked-cap">
          {capLabel(tracked.length, limit, 'tracked')}
        </span>
      </div>
      <div className="row">
        <GamePicker
          label="Track a game"
          disabled={track.isPending || full}
          onPick={(g) => track.mutate(g.universe_id)}
        />
        {full ? (
          <p className="muted small">
            Your plan’s cap is reached: untrack a game, or <Link to="/account#plans">upgrade</Link> to track
            more.
          </p>
        ) : null}
      </div>
      {track.error ? <ErrorState error={track.error} /> : null}
      {untrack.error ? <ErrorState error={untrack.error} /> : null}
      {rows.length === 0 ? (
        <Empty title="You don’t track any game yet">
          <p>
            Search above, or open a game from the <Link to="/market">market</Link> and press Track. Tracked
            games are collected every few minutes and can carry alert rules.
          </p>
        </Empty>
      ) : (
        <DataTable
          rows={rows}
          columns={columns}
          rowKey={(r) => r.universeId}
          caption="Tracked games"
          testId="tracked-table"
        />
      )}
    </section>
  );
}
