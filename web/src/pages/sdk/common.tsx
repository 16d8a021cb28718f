/** Pieces every SDK view shares: stats, the plan-clamp note, the empty state, copy, conditions. */
import { type ReactNode, useEffect, useId, useState } from 'react';
import { Link } from 'react-router';
import { Empty } from '../../components/states';
import { type ConditionDraft, FIELD_SUGGESTIONS, OPS, type Op } from './conditions';
import type { AnalyticsQuery, SdkFilters } from './range';
import { formatDayYear, formatRange } from './sdk-data';

export interface ViewProps {
  gameId: string;
  filters: SdkFilters;
  query: AnalyticsQuery;
}

/** Chart series colours (readable on light and dark). */
export const COLOURS = {
  primary: '#6366f1',
  second: '#0ea5e9',
  third: '#f59e0b',
  good: '#16a34a',
  bad: '#dc2626',
  warn: '#d97706',
  muted: '#94a3b8',
};

/** Whether the system asks for the dark theme (heatmap ramps run dark → bright there). */
export function usePrefersDark(): boolean {
  const query = '(prefers-color-scheme: dark)';
  const [dark, setDark] = useState(
    () => typeof window !== 'undefined' && !!window.matchMedia?.(query).matches,
  );
  useEffect(() => {
    const media = window.matchMedia?.(query);
    const onChange = () => setDark(media.matches);
    media?.addEventListener('change', onChange);
    return () => media?.removeEventListener('change', onChange);
  }, []);
  return dark;
}

export function Stat({
  label,
  value,
  note,
  title,
}: {
  label: string;
  value: ReactNode;
  note?: ReactNode;
  title?: string;
}) {
  return (
    <div className="stat" title={title}>
      <div className="label">{label}</div>
      <div className="value">{value}</div>
      {note ? <div className="note">{note}</div> : null}
    </div>
  );
}

/** The range a view read, and the plan's clamp when it moved `from` (history_limited_from). */
export function RangeNote({
  data,
}: {
  data: { from: string; to: string; history_limited_from: string | null; segment?: number | null };
}) {
  return (
    <p className="muted small sdk-range-note">
      {formatRange(data.from, data.to)} (UTC days)
      {data.history_limited_from ? (
        <span className="notice sdk-clamp" role="note">
          Your plan reads SDK history back to {formatDayYear(data.history_limited_from)}, so the range starts
          there. <Link to="/account#plans">Upgrade for more history</Link>
        </span>
      ) : null}
    </p>
  );
}

export function NoEvents({ what = 'events' }: { what?: string }) {
  return (
    <Empty title={`No ${what} in this range yet`}>
      <p className="muted small">
        Pick a longer range above, or send events with an ingest key (see <Link to="/sdk">SDK setup</Link>).
        The dashboards follow the raw events within seconds.
      </p>
    </Empty>
  );
}

/** A collapsible explanation of how a figure is computed (the API's method strings). */
export function Method({ children }: { children: ReactNode }) {
  return <p className="muted small sdk-method">{children}</p>;
}

export const emptyCondition = (): ConditionDraft => ({ field: 'country', op: 'eq', value: '' });

/** Rows of {field, op, value} inputs, each labelled, with add and remove. */
export function ConditionsEditor({
  drafts,
  onChange,
  legend,
  min = 0,
  max = 20,
}: {
  drafts: ConditionDraft[];
  onChange: (next: ConditionDraft[]) => void;
  legend: string;
  min?: number;
  max?: number;
}) {
  const id = useId();
  const set = (i: number, patch: Partial<ConditionDraft>) =>
    onChange(drafts.map((d, j) => (j === i ? { ...d, ...patch } : d)));
  return (
    <fieldset className="sdk-conditions">
      <legend>{legend}</legend>
      <datalist id={`${id}-fields`}>
        {FIELD_SUGGESTIONS.map((f) => (
          <option key={f} value={f} />
        ))}
      </datalist>
      {drafts.map((d, i) => {
        const hint = OPS.find((o) => o.value === d.op)?.hint ?? '';
        return (
          // biome-ignore lint/suspicious/noArrayIndexKey: rows have no identity beyond their place
          <div className="row sdk-condition" key={i}>
            <label>
              Field
              <input
                value={d.field}
                list={`${id}-fields`}
                onChange={(e) => set(i, { field: e.target.value })}
                placeholder="payload.level"
                required
                aria-describedby={`${id}-field-hint`}
              />
            </label>
            <label>
              Operator
              <select value={d.op} onChange={(e) => set(i, { op: e.target.value as Op })}>
                {OPS.map((o) => (
                  <option key={o.value} value={o.value}>
                    {o.label}
                  </option>
                ))}
              </select>
            </label>
            <label>
              Value
              <input
                value={d.op === 'exists' ? '' : d.value}
                disabled={d.op === 'exists'}
                onChange={(e) => set(i, { value: e.target.value })}
                placeholder={hint}
                title={hint}
              />
            </label>
            <button
              type="button"
              className="button ghost"
              onClick={() => onChange(drafts.filter((_, j) => j !== i))}
              disabled={drafts.length <= min}
              aria-label={`Remove condition ${i + 1}`}
            >
              Remove
            </button>
          </div>
        );
      })}
      <p id={`${id}-field-hint`} className="muted small">
        Fields: platform, country, game_id or payload.&lt;key&gt; (any payload field, nested with dots).
        Values keep their type: 40 is a number, "40" in quotes a text, true/false booleans.
      </p>
      <div>
        <button
          type="button"
          className="button"
          onClick={() => onChange([...drafts, emptyCondition()])}
          disabled={drafts.length >= max}
        >
          Add condition
        </button>
      </div>
    </fieldset>
  );
}
