/** Export: the game's raw events as NDJSON or CSV for the range (a plain download with the session cookie). */
import { useId, useState } from 'react';
import type { ViewProps } from '../common';
import { EVENT_TYPES } from '../conditions';
import { exportHref, spanDays } from '../range';
import { formatRange } from '../sdk-data';

export function ExportView({ gameId, filters }: ViewProps) {
  const id = useId();
  const [types, setTypes] = useState<string[]>([]);
  const toggle = (t: string, on: boolean) => setTypes((ts) => (on ? [...ts, t] : ts.filter((x) => x !== t)));
  const ordered = EVENT_TYPES.filter((t) => types.includes(t));
  const span = spanDays(filters.from, filters.to);
  return (
    <div className="stack">
      <section className="card stack" aria-labelledby={`${id}-t`} data-testid="export-form">
        <h3 id={`${id}-t`}>Raw events for your warehouse</h3>
        <p>
          {formatRange(filters.from, filters.to)} ({span} UTC days)
          {filters.platform ? `, ${filters.platform} only` : ', every platform'}. Change the range above.
        </p>
        <fieldset>
          <legend>Event types (none ticked: every type)</legend>
          <div className="sdk-types">
            {EVENT_TYPES.map((t) => (
              <label className="inline" key={t}>
                <input
                  type="checkbox"
                  checked={types.includes(t)}
                  onChange={(e) => toggle(t, e.target.checked)}
                />{' '}
                {t}
              </label>
            ))}
          </div>
        </fieldset>
        {span < 1 || span > 366 ? (
          <p className="notice warn" role="alert">
            The export reads 1 to 366 days and this range has{' '}
            {span < 1 ? 'its end before its start' : `${span} days`}: pick a shorter range above.
          </p>
        ) : (
          <div className="row">
            <a
              className="button primary"
              href={exportHref(gameId, filters, 'ndjson', ordered)}
              download
              data-testid="export-ndjson"
            >
              Download NDJSON
            </a>
            <a
              className="button"
              href={exportHref(gameId, filters, 'csv', ordered)}
              download
              data-testid="export-csv"
            >
              Download CSV
            </a>
          </div>
        )}
        <p className="muted small">
          Columns: event_id, ts, received_at, platform, game_id, player_id, session_id, type, country,
          sdk_version, payload (JSON text in CSV); rows in time order. Your plan's history limit moves an
          earlier start later (the X-Svc-History-Limited-From header says so); a range over 366 days is
          refused with the API's reason. The segment filter does not apply to exports.
        </p>
        <p className="muted small">
          From a script, pass the same query to <code>GET /api/sdk/export</code>; a cut download resumes with{' '}
          <code>cursor</code> = base64url of the last complete row's <code>ts</code>, a space and its{' '}
          <code>event_id</code>.
        </p>
      </section>
    </div>
  );
}
