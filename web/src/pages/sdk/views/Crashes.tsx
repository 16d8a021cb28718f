/** Crashes: crash-free sessions and players per day, crash groups with a sample trace. */
import { useQuery } from '@tanstack/react-query';
import { useMemo } from 'react';
import { api, unwrap } from '../../../api/client';
import { Chart } from '../../../components/Chart';
import { QueryView } from '../../../components/states';
import { Time } from '../../../components/Time';
import { formatInteger, formatScore } from '../../../lib/format';
import { timeOption } from '../chart-options';
import { COLOURS, NoEvents, RangeNote, Stat, type ViewProps } from '../common';
import { traceTitle } from '../sdk-data';

const pct = (n: number | null) => (n == null ? '–' : `${formatScore(n, 2)}%`);

export function CrashesView({ gameId, query }: ViewProps) {
  const crashes = useQuery({
    queryKey: ['sdk', 'crashes', gameId, query],
    queryFn: () =>
      unwrap(
        api.GET('/api/sdk/analytics/{game_id}/crashes', { params: { path: { game_id: gameId }, query } }),
      ),
  });
  const c = crashes.data;
  const option = useMemo(
    () =>
      c
        ? timeOption(
            c.crash_free.map((p) => p.date),
            [
              {
                name: 'Crashed sessions',
                data: c.crash_free.map((p) => p.crashed_sessions),
                colour: '#fca5a5',
                type: 'bar',
                yAxisIndex: 1,
              },
              {
                name: 'Crash-free sessions',
                data: c.crash_free.map((p) => p.crash_free_sessions_pct),
                colour: COLOURS.good,
              },
              {
                name: 'Crash-free players',
                data: c.crash_free.map((p) => p.crash_free_players_pct),
                colour: COLOURS.primary,
              },
            ],
            { percent: true, yMin: 'floor5', secondAxis: ' ' },
          )
        : null,
    [c],
  );
  return (
    <QueryView
      query={crashes}
      label="Loading crashes"
      empty={(d) => (d.sessions === 0 && d.players === 0 ? <NoEvents /> : null)}
    >
      {(d) => (
        <div className="stack">
          <RangeNote data={d} />
          <div className="stats">
            <Stat
              label="Crash-free sessions"
              value={pct(d.crash_free_sessions_pct)}
              note={`${formatInteger(d.crashed_sessions)} of ${formatInteger(d.sessions)} sessions crashed`}
            />
            <Stat
              label="Crash-free players"
              value={pct(d.crash_free_players_pct)}
              note={`${formatInteger(d.crashed_players)} of ${formatInteger(d.players)} players crashed`}
            />
            <Stat label="Crashes" value={formatInteger(d.crashes)} note="crash events" />
            <Stat
              label="Crash groups"
              value={formatInteger(d.groups_total)}
              note={d.groups_total > 50 ? 'the first 50 below' : undefined}
            />
          </div>
          <section className="card" aria-labelledby="cr-free">
            <h3 id="cr-free">Crash-free per {d.granularity}</h3>
            {option ? (
              <Chart
                option={option}
                testId="crash-free-chart"
                label={`Crash-free sessions and players per ${d.granularity}, over the range ${pct(d.crash_free_sessions_pct)} of sessions`}
              />
            ) : null}
          </section>
          <section className="stack" aria-labelledby="cr-groups" data-testid="crash-groups">
            <h3 id="cr-groups">Crash groups</h3>
            {d.groups.length === 0 ? (
              <p className="notice">No crash in this range. </p>
            ) : (
              d.groups.map((g, i) => (
                <article className="card stack sdk-crash" key={g.group_key}>
                  <h4 className="sdk-crash-title">{traceTitle(g.sample_trace, g.frames)}</h4>
                  <div className="row small">
                    <span>
                      <strong>{formatInteger(g.crashes)}</strong> crashes
                    </span>
                    <span>
                      <strong>{formatInteger(g.players_affected)}</strong> players
                    </span>
                    <span className="muted">
                      first <Time at={g.first_seen} /> · last <Time at={g.last_seen} />
                    </span>
                  </div>
                  <div className="row small">
                    {g.builds.length ? (
                      <span>
                        Builds:{' '}
                        {g.builds.map((b) => (
                          <span key={b} className="badge">
                            {b}
                          </span>
                        ))}
                      </span>
                    ) : null}
                    {g.oses.length ? (
                      <span>
                        OS:{' '}
                        {g.oses.map((o) => (
                          <span key={o} className="badge">
                            {o}
                          </span>
                        ))}
                      </span>
                    ) : null}
                    <span className="muted" title={g.group_key}>
                      grouped by{' '}
                      {g.key_source === 'signature' ? `signature ${g.group_key}` : 'normalised frames'}
                    </span>
                  </div>
                  <details open={i === 0}>
                    <summary>Latest trace</summary>
                    <pre className="code" data-testid="crash-trace">
                      {g.sample_trace}
                    </pre>
                    {g.key_source === 'frames' ? (
                      <>
                        <p className="small muted">Normalised frames (what the group is hashed from):</p>
                        <pre className="code">{g.frames.join('\n')}</pre>
                      </>
                    ) : null}
                  </details>
                </article>
              ))
            )}
          </section>
        </div>
      )}
    </QueryView>
  );
}
