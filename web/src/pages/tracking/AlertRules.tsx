/** Alert rules: the create form (game, type, threshold), the list with inline threshold edits, delete. */
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useEffect, useId, useState } from 'react';
import { Link } from 'react-router';
import { api, unwrap } from '../../api/client';
import { type Column, DataTable } from '../../components/DataTable';
import { GamePicker } from '../../components/GamePicker';
import { Empty, ErrorState } from '../../components/states';
import { Time } from '../../components/Time';
import { formatCompact } from '../../lib/format';
import { ALERTS_KEY, gameName } from './queries';
import {
  ALERT_TYPE_KEYS,
  ALERT_TYPES,
  type Alert,
  type AlertType,
  capLabel,
  formatThreshold,
  type GameResult,
  parseThreshold,
} from './tracking-data';

type Games = Map<number, GameResult | null>;

export function AlertRules({
  alerts,
  tracked,
  games,
  limit,
  preselect,
}: {
  alerts: Alert[];
  tracked: number[];
  games: Games;
  limit: number | undefined;
  /** A universe to start the form with (from "Add alert" on a tracked game). */
  preselect: number | null;
}) {
  return (
    <div className="stack">
      <section className="card stack" aria-labelledby="new-alert-title">
        <div className="page-header">
          <h2 id="new-alert-title">New alert rule</h2>
          <span className="badge" data-testid="alerts-cap">
            {capLabel(alerts.length, limit, 'alert rules')}
          </span>
        </div>
        <AlertForm
          tracked={tracked}
          games={games}
          preselect={preselect}
          full={limit !== undefined && alerts.length >= limit}
        />
      </section>
      <section className="card stack" aria-labelledby="rules-title">
        <h2 id="rules-title">Your alert rules</h2>
        {alerts.length === 0 ? (
          <Empty title="No alert rules yet">
            <p>Create one above: the engine checks every rule every 15 minutes and after each collection.</p>
          </Empty>
        ) : (
          <RulesTable alerts={alerts} games={games} />
        )}
      </section>
    </div>
  );
}

function AlertForm({
  tracked,
  games,
  preselect,
  full,
}: {
  tracked: number[];
  games: Games;
  preselect: number | null;
  full: boolean;
}) {
  const client = useQueryClient();
  const id = useId();
  const [gameId, setGameId] = useState<number | null>(preselect ?? tracked[0] ?? null);
  const [picked, setPicked] = useState<GameResult | null>(null);
  const [type, setType] = useState<AlertType>('ccu_spike');
  const [threshold, setThreshold] = useState('');
  const [problem, setProblem] = useState<string | null>(null);
  const [done, setDone] = useState<string | null>(null);
  useEffect(() => {
    if (gameId === null && tracked[0] !== undefined) setGameId(tracked[0]);
  }, [gameId, tracked]);
  const create = useMutation({
    mutationFn: (body: { game_id: number; type: AlertType; threshold?: number }) =>
      unwrap(api.POST('/api/alerts', { body })),
    onSuccess: (created) => {
      setThreshold('');
      setDone(`Created: ${ALERT_TYPES[created.type].label} on ${name(created.game_id)}.`);
    },
    onSettled: () => client.invalidateQueries({ queryKey: ALERTS_KEY }),
  });
  const info = ALERT_TYPES[type];
  const choices = [...new Set([...tracked, ...(picked ? [picked.universe_id] : [])])];
  const name = (universeId: number) =>
    picked?.universe_id === universeId ? picked.name : gameName(games, universeId);
  const game =
    gameId === null
      ? undefined
      : (games.get(gameId) ?? (picked?.universe_id === gameId ? picked : undefined));
  const submit = (e: FormEvent) => {
    e.preventDefault();
    setDone(null);
    if (gameId === null) {
      setProblem('Pick a game first.');
      return;
    }
    const parsed = parseThreshold(type, threshold);
    if ('problem' in parsed) {
      setProblem(parsed.problem);
      return;
    }
    setProblem(null);
    create.mutate({
      game_id: gameId,
      type,
      ...(parsed.value === undefined ? {} : { threshold: parsed.value }),
    });
  };
  return (
    <form className="stack" onSubmit={submit} data-testid="alert-form" noValidate>
      <div className="grid alert-form-grid">
        <label htmlFor={`${id}-game`}>
          Game
          <select
            id={`${id}-game`}
            value={gameId ?? ''}
            onChange={(e) => setGameId(e.target.value ? Number(e.target.value) : null)}
          >
            {gameId === null ? <option value="">Pick a tracked game, or search</option> : null}
            {choices.map((u) => (
              <option key={u} value={u}>
                {name(u)}
              </option>
            ))}
          </select>
        </label>
        <GamePicker
          label="…or search any game"
          onPick={(g) => {
            setPicked(g);
            setGameId(g.universe_id);
          }}
        />
        <label htmlFor={`${id}-type`}>
          Type
          <select id={`${id}-type`} value={type} onChange={(e) => setType(e.target.value as AlertType)}>
            {ALERT_TYPE_KEYS.map((t) => (
              <option key={t} value={t}>
                {ALERT_TYPES[t].label}
              </option>
            ))}
          </select>
        </label>
        <label htmlFor={`${id}-threshold`}>
          Threshold
          <input
            id={`${id}-threshold`}
            inputMode="decimal"
            value={threshold}
            placeholder={
              info.defaultThreshold === undefined ? 'required' : `default ${info.defaultThreshold}`
            }
            aria-describedby={`${id}-help`}
            aria-invalid={problem ? true : undefined}
            onChange={(e) => setThreshold(e.target.value)}
          />
        </label>
      </div>
      <p id={`${id}-help`} className="muted small">
        <strong>{info.label}:</strong> {info.fires} Threshold: {info.threshold}
        {info.defaultThreshold === undefined ? '' : `; ${info.defaultThreshold} when left empty`}.
        {game && (type === 'ccu_spike' || type === 'ccu_drop' || type === 'competitor')
          ? ` ${game.name} has ${formatCompact(game.ccu)} CCU now.`
          : ''}
      </p>
      {problem ? (
        <p className="field-error" role="alert">
          {problem}
        </p>
      ) : null}
      {create.error ? <ErrorState error={create.error} /> : null}
      <div className="row">
        <button type="submit" className="button primary" disabled={create.isPending || full}>
          {create.isPending ? 'Creating…' : 'Create alert'}
        </button>
        {full ? (
          <span className="muted small">
            Your plan’s alert cap is reached: delete a rule, or <Link to="/account#plans">upgrade</Link>.
          </span>
        ) : null}
        <span className="good small" role="status">
          {done}
        </span>
      </div>
    </form>
  );
}

function ThresholdEditor({ alert, onClose }: { alert: Alert; onClose: () => void }) {
  const client = useQueryClient();
  const id = useId();
  const [value, setValue] = useState(String(alert.threshold));
  const [problem, setProblem] = useState<string | null>(null);
  const save = useMutation({
    mutationFn: (threshold: number) =>
      unwrap(
        api.PATCH('/api/alerts/{alert_id}', {
          params: { path: { alert_id: alert.id } },
          body: { threshold },
        }),
      ),
    onSuccess: () => onClose(),
    onSettled: () => client.invalidateQueries({ queryKey: ALERTS_KEY }),
  });
  const submit = (e: FormEvent) => {
    e.preventDefault();
    const parsed = parseThreshold(alert.type, value);
    if ('problem' in parsed) return setProblem(parsed.problem);
    if (parsed.value === undefined) return setProblem('Enter the new threshold.');
    setProblem(null);
    save.mutate(parsed.value);
  };
  return (
    <form className="threshold-editor" onSubmit={submit} noValidate>
      <label htmlFor={`${id}-value`} className="sr-only">
        New threshold for rule {alert.id}
      </label>
      <input
        id={`${id}-value`}
        inputMode="decimal"
        value={value}
        size={10}
        aria-invalid={problem || save.error ? true : undefined}
        onChange={(e) => setValue(e.target.value)}
        onKeyDown={(e) => {
          if (e.key === 'Escape') onClose();
        }}
        // biome-ignore lint/a11y/noAutofocus: the editor opens on a click on "Edit"; focus belongs in it
        autoFocus
      />
      <button type="submit" className="button primary" disabled={save.isPending}>
        Save
      </button>
      <button type="button" className="button ghost" onClick={onClose}>
        Cancel
      </button>
      {problem ? <span className="field-error">{problem}</span> : null}
      {save.error ? <span className="field-error">{(save.error as Error).message}</span> : null}
    </form>
  );
}

function RulesTable({ alerts, games }: { alerts: Alert[]; games: Games }) {
  const client = useQueryClient();
  const [editing, setEditing] = useState<number | null>(null);
  const remove = useMutation({
    mutationFn: (alertId: number) =>
      unwrap(api.DELETE('/api/alerts/{alert_id}', { params: { path: { alert_id: alertId } } })),
    onSettled: () => client.invalidateQueries({ queryKey: ALERTS_KEY }),
  });
  const confirmDelete = (a: Alert) => {
    const what = `${ALERT_TYPES[a.type].label} on ${gameName(games, a.game_id)}`;
    if (window.confirm(`Delete the rule “${what}” and its firing history?`)) remove.mutate(a.id);
  };
  const columns: Column<Alert>[] = [
    {
      key: 'game',
      header: 'Game',
      cell: (a) => {
        const g = games.get(a.game_id);
        return g ? <Link to={`/games/${g.place_id}`}>{g.name}</Link> : gameName(games, a.game_id);
      },
      sort: (a) => gameName(games, a.game_id).toLowerCase(),
    },
    { key: 'type', header: 'Type', cell: (a) => ALERT_TYPES[a.type].label, sort: (a) => a.type },
    {
      key: 'threshold',
      header: 'Threshold',
      cell: (a) =>
        editing === a.id ? (
          <ThresholdEditor alert={a} onClose={() => setEditing(null)} />
        ) : (
          <span className="row threshold-cell">
            {formatThreshold(a.type, a.threshold)}
            <button type="button" className="button ghost small" onClick={() => setEditing(a.id)}>
              Edit<span className="sr-only"> threshold of rule {a.id}</span>
            </button>
          </span>
        ),
      sort: (a) => a.threshold,
    },
    { key: 'message', header: 'Status', cell: (a) => <span className="wrap-cell">{a.message}</span> },
    { key: 'created', header: 'Created', cell: (a) => <Time at={a.created_at} />, sort: (a) => a.created_at },
    {
      key: 'actions',
      header: 'Actions',
      cell: (a) => (
        <button
          type="button"
          className="button danger"
          disabled={remove.isPending && remove.variables === a.id}
          onClick={() => confirmDelete(a)}
        >
          Delete<span className="sr-only"> rule {a.id}</span>
        </button>
      ),
    },
  ];
  return (
    <>
      {remove.error ? <ErrorState error={remove.error} /> : null}
      <DataTable
        rows={alerts}
        columns={columns}
        rowKey={(a) => a.id}
        caption="Your alert rules"
        testId="alert-rules-table"
      />
      <p className="muted small">
        Changing a threshold starts the rule over: a CCU rule already past its new line fires at the next
        check; the other types take a new reference then, without firing.
      </p>
    </>
  );
}
