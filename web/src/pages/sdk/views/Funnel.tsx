/** Funnel builder: ordered level and custom-event steps → players per step and conversion. */
import { useQuery } from '@tanstack/react-query';
import { type FormEvent, useId, useMemo, useState } from 'react';
import { api, type Schemas, unwrap } from '../../../api/client';
import { Chart } from '../../../components/Chart';
import { type Column, DataTable } from '../../../components/DataTable';
import { Empty, ErrorState, Loading } from '../../../components/states';
import { formatInteger, formatPercent } from '../../../lib/format';
import { COLOURS, ConditionsEditor, RangeNote, type ViewProps } from '../common';
import {
  type FunnelBody,
  type FunnelStepDraft,
  formatSeconds,
  funnelBars,
  funnelBody,
  move,
} from '../sdk-data';

type Step = Schemas['SdkFunnel']['steps'][number];

const columns: Column<Step>[] = [
  { key: 'index', header: '#', cell: (s) => s.index + 1, sort: (s) => s.index, numeric: true },
  { key: 'label', header: 'Step', cell: (s) => s.label },
  {
    key: 'players',
    header: 'Players',
    cell: (s) => formatInteger(s.players),
    sort: (s) => s.players,
    numeric: true,
  },
  { key: 'first', header: 'From first', cell: (s) => formatPercent(s.conversion_from_first), numeric: true },
  {
    key: 'prev',
    header: 'From previous',
    cell: (s) => formatPercent(s.conversion_from_previous),
    numeric: true,
  },
  {
    key: 'time',
    header: 'Median time from previous',
    cell: (s) => formatSeconds(s.median_seconds_from_previous),
    numeric: true,
  },
];

const initial: FunnelStepDraft[] = [
  { kind: 'level', value: '1', where: [] },
  { kind: 'level', value: '2', where: [] },
  { kind: 'level', value: '3', where: [] },
];

/** Custom event names seen lately, offered as suggestions. */
function useRecentCustomNames(gameId: string): string[] {
  const recent = useQuery({
    queryKey: ['sdk', 'recent', 100],
    queryFn: () => unwrap(api.GET('/api/sdk/events/recent', { params: { query: { limit: 100 } } })),
    staleTime: 60_000,
  });
  return useMemo(() => {
    const names = new Set<string>();
    for (const e of recent.data?.events ?? []) {
      if (e.game_id === gameId && e.type === 'custom' && typeof e.payload.name === 'string')
        names.add(e.payload.name);
    }
    return [...names].sort();
  }, [recent.data, gameId]);
}

export function FunnelView({ gameId, query }: ViewProps) {
  const id = useId();
  const [drafts, setDrafts] = useState<FunnelStepDraft[]>(initial);
  const [windowHours, setWindowHours] = useState('24');
  const [problem, setProblem] = useState<string | null>(null);
  const [body, setBody] = useState<FunnelBody | null>(null);
  const names = useRecentCustomNames(gameId);
  const { granularity: _unused, ...funnelQuery } = query;
  const funnel = useQuery({
    queryKey: ['sdk', 'funnel', gameId, funnelQuery, body],
    enabled: body != null,
    queryFn: () =>
      unwrap(
        api.POST('/api/sdk/analytics/{game_id}/funnel', {
          params: { path: { game_id: gameId }, query: funnelQuery },
          body: body as FunnelBody,
        }),
      ),
  });
  const set = (i: number, patch: Partial<FunnelStepDraft>) =>
    setDrafts((ds) => ds.map((d, j) => (j === i ? { ...d, ...patch } : d)));
  const submit = (e: FormEvent) => {
    e.preventDefault();
    const r = funnelBody(drafts, windowHours);
    if ('error' in r) {
      setProblem(r.error);
      return;
    }
    setProblem(null);
    setBody(r.body);
    if (body && JSON.stringify(body) === JSON.stringify(r.body)) void funnel.refetch();
  };
  const result = funnel.data;
  const option = useMemo(() => {
    if (!result) return null;
    const bars = funnelBars(result.steps);
    return {
      grid: { left: 8, right: 16, top: 24, bottom: 8, containLabel: true },
      tooltip: { trigger: 'axis', axisPointer: { type: 'shadow' } },
      xAxis: {
        type: 'category',
        data: bars.labels,
        axisLabel: { interval: 0, width: 100, overflow: 'truncate' },
      },
      yAxis: { type: 'value' },
      series: [
        {
          name: 'Players',
          type: 'bar',
          data: bars.players,
          itemStyle: { color: COLOURS.primary },
          label: {
            show: true,
            position: 'top',
            formatter: (p: { dataIndex: number; value: number }) =>
              `${formatInteger(p.value)} · ${bars.notes[p.dataIndex] ?? ''}`,
          },
        },
      ],
    };
  }, [result]);

  return (
    <div className="stack">
      <form
        className="card stack"
        onSubmit={submit}
        data-testid="funnel-form"
        aria-labelledby={`${id}-title`}
        noValidate
      >
        <h3 id={`${id}-title`}>Steps, in order</h3>
        <datalist id={`${id}-names`}>
          {names.map((n) => (
            <option key={n} value={n} />
          ))}
        </datalist>
        <ol className="sdk-steps">
          {drafts.map((d, i) => (
            // biome-ignore lint/suspicious/noArrayIndexKey: steps are identified by their position
            <li key={i} className="sdk-step">
              <div className="row">
                <label>
                  Step {i + 1} kind
                  <select
                    value={d.kind}
                    onChange={(e) => set(i, { kind: e.target.value as FunnelStepDraft['kind'], value: '' })}
                  >
                    <option value="level">Level</option>
                    <option value="custom">Custom event</option>
                  </select>
                </label>
                {d.kind === 'level' ? (
                  <label>
                    Step {i + 1} level number
                    <input
                      inputMode="numeric"
                      value={d.value}
                      onChange={(e) => set(i, { value: e.target.value })}
                      required
                      size={8}
                    />
                  </label>
                ) : (
                  <label>
                    Step {i + 1} event name
                    <input
                      value={d.value}
                      list={`${id}-names`}
                      onChange={(e) => set(i, { value: e.target.value })}
                      placeholder="tutorial_complete"
                      required
                    />
                  </label>
                )}
                <div className="row sdk-step-actions">
                  <button
                    type="button"
                    className="button ghost"
                    onClick={() => setDrafts((ds) => move(ds, i, i - 1))}
                    disabled={i === 0}
                    aria-label={`Move step ${i + 1} up`}
                  >
                    ↑
                  </button>
                  <button
                    type="button"
                    className="button ghost"
                    onClick={() => setDrafts((ds) => move(ds, i, i + 1))}
                    disabled={i === drafts.length - 1}
                    aria-label={`Move step ${i + 1} down`}
                  >
                    ↓
                  </button>
                  <button
                    type="button"
                    className="button ghost danger"
                    onClick={() => setDrafts((ds) => ds.filter((_, j) => j !== i))}
                    disabled={drafts.length <= 2}
                    aria-label={`Remove step ${i + 1}`}
                  >
                    Remove
                  </button>
                </div>
              </div>
              {d.where.length > 0 ? (
                <ConditionsEditor
                  legend={`Step ${i + 1}: only events where (all of)`}
                  drafts={d.where}
                  onChange={(where) => set(i, { where })}
                />
              ) : (
                <button
                  type="button"
                  className="button small"
                  onClick={() => set(i, { where: [{ field: 'payload.result', op: 'eq', value: 'win' }] })}
                >
                  Add a condition to step {i + 1}
                </button>
              )}
            </li>
          ))}
        </ol>
        <div className="row">
          <button
            type="button"
            className="button"
            onClick={() => setDrafts((ds) => [...ds, { kind: 'custom', value: '', where: [] }])}
            disabled={drafts.length >= 10}
          >
            Add step
          </button>
          <label>
            Window (hours from the first step)
            <input
              type="number"
              min={1}
              max={720}
              value={windowHours}
              onChange={(e) => setWindowHours(e.target.value)}
              size={6}
            />
          </label>
          <button type="submit" className="button primary" disabled={funnel.isFetching}>
            {funnel.isFetching ? 'Counting…' : 'Run funnel'}
          </button>
        </div>
        {problem ? (
          <p className="field-error" role="alert">
            {problem}
          </p>
        ) : null}
        <p className="muted small">
          A player enters at their first step-1 event in the range and reaches each next step with the
          earliest matching event after the previous one, within the window. Read from raw events.
        </p>
      </form>
      {body == null ? (
        <Empty title="Build a funnel and run it">
          <p className="muted small">2 to 10 steps: levels (any result) or custom event names.</p>
        </Empty>
      ) : funnel.isPending ? (
        <Loading label="Counting players through the steps" />
      ) : funnel.error ? (
        <ErrorState error={funnel.error} retry={() => void funnel.refetch()} />
      ) : result ? (
        <section className="card stack" aria-labelledby={`${id}-result`}>
          <h3 id={`${id}-result`}>
            {formatInteger(result.steps[0]?.players ?? 0)} players entered ·{' '}
            {formatPercent(result.steps.at(-1)?.conversion_from_first ?? null)} reached the last step
          </h3>
          <RangeNote data={result} />
          {(result.steps[0]?.players ?? 0) === 0 ? (
            <Empty title="No player did the first step in this range yet" />
          ) : option ? (
            <Chart
              option={option}
              testId="funnel-chart"
              label={`Funnel: ${result.steps.map((s) => `${s.label} ${s.players}`).join(', ')}`}
            />
          ) : null}
          <DataTable
            testId="funnel-table"
            caption="Players per funnel step"
            rows={result.steps}
            columns={columns}
            rowKey={(s) => s.index}
          />
          <p className="muted small">Window: {result.window_hours} hours from each player's first step.</p>
        </section>
      ) : null}
    </div>
  );
}
