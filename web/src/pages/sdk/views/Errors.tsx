/** Errors: groups of severity × source × message prefix, totals by severity, errors per day. */
import { useQuery } from '@tanstack/react-query';
import { useMemo } from 'react';
import { api, type Schemas, unwrap } from '../../../api/client';
import { Chart } from '../../../components/Chart';
import { type Column, DataTable } from '../../../components/DataTable';
import { Sparkline } from '../../../components/Sparkline';
import { Empty, QueryView } from '../../../components/states';
import { Time } from '../../../components/Time';
import { formatInteger } from '../../../lib/format';
import { timeOption } from '../chart-options';
import { COLOURS, RangeNote, Stat, type ViewProps } from '../common';
import { errorsBySeverity, type Severity } from '../sdk-data';

type Group = Schemas['SdkErrors']['groups'][number];

const SEVERITY_COLOUR: Record<Severity, string> = {
  fatal: COLOURS.bad,
  error: COLOURS.warn,
  warn: COLOURS.muted,
};
const SEVERITY_CLASS: Record<Severity, string> = { fatal: 'bad', error: 'warn', warn: 'muted' };

const columns: Column<Group>[] = [
  {
    key: 'severity',
    header: 'Severity',
    cell: (g) => <span className={`badge ${SEVERITY_CLASS[g.severity]}`}>{g.severity}</span>,
    sort: (g) => ['fatal', 'error', 'warn'].indexOf(g.severity),
  },
  { key: 'source', header: 'Source', cell: (g) => g.source ?? '–', sort: (g) => g.source },
  {
    key: 'message',
    header: 'Message',
    cell: (g) => (
      <details className="sdk-error-message">
        <summary>{g.message_prefix}</summary>
        <pre className="code">{g.sample_message}</pre>
      </details>
    ),
    sort: (g) => g.message_prefix,
  },
  {
    key: 'errors',
    header: 'Errors',
    cell: (g) => formatInteger(g.errors),
    sort: (g) => g.errors,
    numeric: true,
  },
  {
    key: 'players',
    header: 'Players',
    cell: (g) => formatInteger(g.players_affected),
    sort: (g) => g.players_affected,
    numeric: true,
  },
  {
    key: 'trend',
    header: 'Per day',
    cell: (g) => (
      <span className="sdk-trend">
        <Sparkline
          values={g.series.map((p) => p.errors)}
          label={`${g.message_prefix}: ${g.errors} errors over the range`}
        />
      </span>
    ),
  },
  { key: 'first', header: 'First seen', cell: (g) => <Time at={g.first_seen} />, sort: (g) => g.first_seen },
  { key: 'last', header: 'Last seen', cell: (g) => <Time at={g.last_seen} />, sort: (g) => g.last_seen },
];

export function ErrorsView({ gameId, query }: ViewProps) {
  const errors = useQuery({
    queryKey: ['sdk', 'errors', gameId, query],
    queryFn: () =>
      unwrap(
        api.GET('/api/sdk/analytics/{game_id}/errors', { params: { path: { game_id: gameId }, query } }),
      ),
  });
  const e = errors.data;
  const option = useMemo(() => {
    if (!e) return null;
    const s = errorsBySeverity(e.groups);
    return timeOption(
      s.dates,
      s.series.map((x) => ({
        name: x.severity,
        data: x.values,
        colour: SEVERITY_COLOUR[x.severity],
        type: 'bar' as const,
        stack: 'errors',
      })),
    );
  }, [e]);
  return (
    <QueryView
      query={errors}
      label="Loading errors"
      empty={(d) =>
        d.errors === 0 ? (
          <Empty title="No errors in this range">
            <p className="muted small">
              Send <code>error</code> events (severity warn | error | fatal, message, optional source) to
              group them here.
            </p>
          </Empty>
        ) : null
      }
    >
      {(d) => (
        <div className="stack">
          <RangeNote data={d} />
          <div className="stats">
            <Stat
              label="Errors"
              value={formatInteger(d.errors)}
              note={`${formatInteger(d.groups_total)} groups`}
            />
            {d.by_severity.map((s) => (
              <Stat
                key={s.severity}
                label={s.severity}
                value={
                  <span className={s.severity === 'fatal' && s.errors > 0 ? 'bad' : undefined}>
                    {formatInteger(s.errors)}
                  </span>
                }
                note={`${formatInteger(s.groups)} ${s.groups === 1 ? 'group' : 'groups'} · ${formatInteger(s.players_affected)} players`}
              />
            ))}
          </div>
          <section className="card" aria-labelledby="er-chart">
            <h3 id="er-chart">Errors per {d.granularity} by severity</h3>
            {option ? (
              <Chart
                option={option}
                label={`Errors per ${d.granularity}, stacked by severity, total ${d.errors}`}
              />
            ) : null}
            {d.groups_total > d.groups.length ? (
              <p className="muted small">Summed over the {d.groups.length} groups listed below.</p>
            ) : null}
          </section>
          <section className="card" aria-labelledby="er-groups">
            <h3 id="er-groups">Error groups</h3>
            <DataTable
              testId="error-groups"
              caption="Error groups: fatal first, then error, then warn"
              rows={d.groups}
              columns={columns}
              rowKey={(g) => `${g.severity}|${g.source}|${g.message_prefix}`}
            />
            <p className="muted small">
              Grouped by severity, source and the message's first 80 characters after normalising numbers, ids
              and paths. Open a message to see the latest one as sent.
            </p>
          </section>
        </div>
      )}
    </QueryView>
  );
}
