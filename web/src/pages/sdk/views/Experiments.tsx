/** Experiments: this game's A/B tests (create, stop, delete) and each one's results per variant. */
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useId, useState } from 'react';
import { useSearchParams } from 'react-router';
import { api, type Schemas, unwrap } from '../../../api/client';
import { type Column, DataTable } from '../../../components/DataTable';
import { Empty, ErrorState, QueryView } from '../../../components/states';
import { Time } from '../../../components/Time';
import { formatDay, formatInteger, formatPercent, formatScore } from '../../../lib/format';
import { Stat, type ViewProps } from '../common';
import { todayUtc } from '../range';
import {
  type ExperimentBody,
  type ExperimentDraft,
  experimentBody,
  formatP,
  METRICS,
  type Metric,
  type MetricDraft,
  metricDifference,
  metricLabel,
  metricValue,
} from '../sdk-data';

type Experiment = Schemas['SdkExperiment'];
type Results = Schemas['SdkExperimentResults'];
type MetricResult = Results['metrics'][number];
type VariantValue = MetricResult['variants'][number];

const EXPERIMENTS_KEY = ['sdk', 'experiments'] as const;

const VERDICT_CLASS: Record<Results['verdict']['status'], string> = {
  no_data: 'neutral',
  sample_ratio_mismatch: 'bad',
  no_plan: 'warn',
  collecting: 'neutral',
  treatment_better: 'good',
  control_better: 'bad',
  no_difference: 'neutral',
};

function newDraft(): ExperimentDraft {
  return {
    key: '',
    variants: [
      { key: 'control', weight: '1' },
      { key: 'treatment', weight: '1' },
    ],
    primary: { metric: 'd1_retention', event_name: '' },
    secondary: [],
    mde: '',
    baseline: '',
    startDay: todayUtc(new Date()),
  };
}

function MetricPicker({
  value,
  onChange,
  label,
}: {
  value: MetricDraft;
  onChange: (m: MetricDraft) => void;
  label: string;
}) {
  return (
    <div className="row">
      <label>
        {label}
        <select
          value={value.metric}
          onChange={(e) => onChange({ ...value, metric: e.target.value as Metric })}
        >
          {METRICS.map((m) => (
            <option key={m.value} value={m.value}>
              {m.label}
            </option>
          ))}
        </select>
      </label>
      {value.metric === 'custom' ? (
        <label>
          {label}: custom event name
          <input
            value={value.event_name}
            onChange={(e) => onChange({ ...value, event_name: e.target.value })}
            required
          />
        </label>
      ) : null}
    </div>
  );
}

function CreateExperiment({ gameId, onCreated }: { gameId: string; onCreated: (id: number) => void }) {
  const id = useId();
  const client = useQueryClient();
  const [draft, setDraft] = useState<ExperimentDraft>(newDraft);
  const [problem, setProblem] = useState<string | null>(null);
  const create = useMutation({
    mutationFn: (body: ExperimentBody) => unwrap(api.POST('/api/sdk/experiments', { body })),
    onSuccess: (exp) => {
      setDraft(newDraft());
      void client.invalidateQueries({ queryKey: EXPERIMENTS_KEY });
      onCreated(exp.id);
    },
  });
  const submit = (e: FormEvent) => {
    e.preventDefault();
    const r = experimentBody(gameId, draft);
    if ('error' in r) {
      setProblem(r.error);
      return;
    }
    setProblem(null);
    create.mutate(r.body);
  };
  const setVariant = (i: number, patch: Partial<ExperimentDraft['variants'][number]>) =>
    setDraft((d) => ({ ...d, variants: d.variants.map((v, j) => (j === i ? { ...v, ...patch } : v)) }));
  return (
    <form
      className="card stack"
      onSubmit={submit}
      aria-labelledby={`${id}-t`}
      data-testid="experiment-form"
      noValidate
    >
      <h3 id={`${id}-t`}>New experiment</h3>
      <div className="row">
        <label>
          Experiment key
          <input
            value={draft.key}
            onChange={(e) => setDraft((d) => ({ ...d, key: e.target.value }))}
            placeholder="shop_layout"
            required
          />
        </label>
        <label>
          Start day (UTC)
          <input
            type="date"
            value={draft.startDay}
            onChange={(e) => setDraft((d) => ({ ...d, startDay: e.target.value }))}
          />
        </label>
      </div>
      <fieldset className="stack">
        <legend>Variants (the first is the control)</legend>
        {draft.variants.map((v, i) => (
          // biome-ignore lint/suspicious/noArrayIndexKey: variants are identified by their position while edited
          <div className="row" key={i}>
            <label>
              Variant {i + 1} key
              <input value={v.key} onChange={(e) => setVariant(i, { key: e.target.value })} required />
            </label>
            <label>
              Variant {i + 1} weight
              <input
                type="number"
                min={1}
                step={1}
                value={v.weight}
                onChange={(e) => setVariant(i, { weight: e.target.value })}
                size={5}
              />
            </label>
            <button
              type="button"
              className="button ghost"
              disabled={draft.variants.length <= 2}
              onClick={() => setDraft((d) => ({ ...d, variants: d.variants.filter((_, j) => j !== i) }))}
              aria-label={`Remove variant ${i + 1}`}
            >
              Remove
            </button>
          </div>
        ))}
        <div>
          <button
            type="button"
            className="button"
            disabled={draft.variants.length >= 5}
            onClick={() =>
              setDraft((d) => ({
                ...d,
                variants: [...d.variants, { key: `variant_${d.variants.length}`, weight: '1' }],
              }))
            }
          >
            Add variant
          </button>
        </div>
      </fieldset>
      <MetricPicker
        label="Primary metric"
        value={draft.primary}
        onChange={(primary) => setDraft((d) => ({ ...d, primary }))}
      />
      <fieldset className="stack">
        <legend>Secondary metrics (up to 5)</legend>
        {draft.secondary.map((m, i) => (
          // biome-ignore lint/suspicious/noArrayIndexKey: metrics are identified by their position while edited
          <div className="row" key={i}>
            <MetricPicker
              label={`Secondary ${i + 1}`}
              value={m}
              onChange={(next) =>
                setDraft((d) => ({ ...d, secondary: d.secondary.map((x, j) => (j === i ? next : x)) }))
              }
            />
            <button
              type="button"
              className="button ghost"
              onClick={() => setDraft((d) => ({ ...d, secondary: d.secondary.filter((_, j) => j !== i) }))}
              aria-label={`Remove secondary metric ${i + 1}`}
            >
              Remove
            </button>
          </div>
        ))}
        <div>
          <button
            type="button"
            className="button"
            disabled={draft.secondary.length >= 5}
            onClick={() =>
              setDraft((d) => ({
                ...d,
                secondary: [...d.secondary, { metric: 'd7_retention', event_name: '' }],
              }))
            }
          >
            Add secondary metric
          </button>
        </div>
      </fieldset>
      <div className="row">
        <label>
          Minimum detectable effect
          <input
            inputMode="decimal"
            value={draft.mde}
            onChange={(e) => setDraft((d) => ({ ...d, mde: e.target.value }))}
            placeholder="0.02 (2 points) or USD"
            aria-describedby={`${id}-mde`}
          />
        </label>
        <label>
          Baseline (optional)
          <input
            inputMode="decimal"
            value={draft.baseline}
            onChange={(e) => setDraft((d) => ({ ...d, baseline: e.target.value }))}
            placeholder="control rate, e.g. 0.4"
            aria-describedby={`${id}-mde`}
          />
        </label>
      </div>
      <p id={`${id}-mde`} className="muted small">
        The effect is absolute in the primary metric's unit (a share such as 0.02, or USD per player); it sets
        the planned sample size, and without it no winner is called. The baseline is the control's rate, or
        revenue's standard deviation; by default the control's figure so far.
      </p>
      <p className="muted small">
        Exposure contract: when the game shows a variant it sends a <code>custom</code> event{' '}
        <code>{'{"name": "experiment_exposure", "experiment": "<key>", "variant": "<variant key>"}'}</code>.
      </p>
      <div className="row">
        <button type="submit" className="button primary" disabled={create.isPending}>
          {create.isPending ? 'Creating…' : 'Create experiment'}
        </button>
      </div>
      {problem ? (
        <p className="field-error" role="alert">
          {problem}
        </p>
      ) : null}
      {create.error ? <ErrorState error={create.error} /> : null}
    </form>
  );
}

function metricColumns(unit: MetricResult['unit'], rate: boolean): Column<VariantValue>[] {
  return [
    { key: 'variant', header: 'Variant', cell: (v) => v.variant },
    {
      key: 'players',
      header: 'Players',
      cell: (v) => formatInteger(v.players),
      sort: (v) => v.players,
      numeric: true,
    },
    ...(rate
      ? [
          {
            key: 'successes',
            header: 'Successes',
            cell: (v: VariantValue) => formatInteger(v.successes),
            numeric: true,
          },
        ]
      : [{ key: 'sd', header: 'SD', cell: (v: VariantValue) => metricValue(v.sd, unit), numeric: true }]),
    {
      key: 'value',
      header: 'Value',
      cell: (v) => <strong>{metricValue(v.value, unit)}</strong>,
      sort: (v) => v.value,
      numeric: true,
    },
    {
      key: 'ci',
      header: '95% CI',
      cell: (v) =>
        v.ci_low == null ? '–' : `${metricValue(v.ci_low, unit)} – ${metricValue(v.ci_high, unit)}`,
      numeric: true,
    },
    { key: 'diff', header: 'Δ vs control', cell: (v) => metricDifference(v.difference, unit), numeric: true },
    {
      key: 'dci',
      header: 'Δ 95% CI',
      cell: (v) =>
        v.difference_ci_low == null
          ? '–'
          : `${metricDifference(v.difference_ci_low, unit)} to ${metricDifference(v.difference_ci_high, unit)}`,
      numeric: true,
    },
    {
      key: 'rel',
      header: 'Relative',
      cell: (v) => formatPercent(v.relative_difference, { signed: true }),
      numeric: true,
    },
    {
      key: 'p',
      header: 'p',
      cell: (v) => (
        <span className={v.p_value != null && v.p_value < 0.05 ? 'good' : undefined}>
          {formatP(v.p_value)}
        </span>
      ),
      sort: (v) => v.p_value,
      numeric: true,
    },
    { key: 'stat', header: 'Statistic', cell: (v) => formatScore(v.statistic, 3), numeric: true },
  ];
}

function ResultsPanel({ id }: { id: number }) {
  const results = useQuery({
    queryKey: ['sdk', 'experiment-results', id],
    queryFn: () => unwrap(api.GET('/api/sdk/experiments/{id}/results', { params: { path: { id } } })),
  });
  return (
    <QueryView query={results} label="Computing the results">
      {(r) => (
        <section className="stack" aria-labelledby="exp-results" data-testid="experiment-results">
          <h3 id="exp-results">
            Results: <code>{r.experiment.key}</code>
          </h3>
          <p
            className={`notice sdk-verdict sdk-verdict-${VERDICT_CLASS[r.verdict.status]}`}
            data-testid="experiment-verdict"
          >
            <strong>{r.verdict.status.replace(/_/g, ' ')}</strong> — {r.verdict.text}
          </p>
          <p className="small">
            <span className={`badge ${r.experiment.status === 'running' ? 'good' : ''}`}>
              {r.experiment.status}
            </span>{' '}
            Variants {r.experiment.variants.map((v) => `${v.key} (weight ${v.weight})`).join(', ')} · primary{' '}
            {metricLabel(r.experiment.primary_metric)}
            {r.experiment.secondary_metrics.length
              ? ` · secondary ${r.experiment.secondary_metrics.map(metricLabel).join(', ')}`
              : ''}{' '}
            · minimum detectable effect {r.experiment.minimum_detectable_effect ?? 'none'} · baseline{' '}
            {r.experiment.baseline ?? "the control's so far"} · from {formatDay(r.experiment.start_day)} ·
            created <Time at={r.experiment.created_at} />
            {r.experiment.stopped_at ? (
              <>
                {' '}
                · stopped <Time at={r.experiment.stopped_at} />
              </>
            ) : null}
          </p>
          <p className="muted small">
            Exposures from {formatDay(r.from)} to {formatDay(r.to)}
            {r.history_limited_from
              ? ` (your plan's history starts ${formatDay(r.history_limited_from)})`
              : ''}
            .
          </p>
          <div className="stats">
            <Stat label="Players exposed" value={formatInteger(r.exposure.players_exposed)} note="analysed" />
            <Stat
              label="Contaminated"
              value={formatInteger(r.exposure.contaminated)}
              note="saw 2+ variants"
            />
            <Stat label="Unknown variant" value={formatInteger(r.exposure.unknown_variant)} />
            <Stat
              label="Sample size"
              value={
                r.sample_size.required_per_variant == null
                  ? 'no plan'
                  : `${formatInteger(r.sample_size.smallest_variant)} / ${formatInteger(r.sample_size.required_per_variant)}`
              }
              note={r.sample_size.reached ? 'reached' : 'smallest variant / needed per variant'}
            />
          </div>
          {r.sample_size.progress != null ? (
            <label className="sdk-progress">
              Progress to the planned size ({formatPercent(r.sample_size.progress, { digits: 0 })})
              <progress max={1} value={r.sample_size.progress} />
            </label>
          ) : null}
          <div className="card">
            <h4>Variants</h4>
            <DataTable
              caption="Players per variant"
              rows={r.variants}
              rowKey={(v) => v.variant}
              columns={[
                { key: 'variant', header: 'Variant', cell: (v) => v.variant },
                {
                  key: 'weight',
                  header: 'Weight',
                  cell: (v) => v.weight,
                  sort: (v) => v.weight,
                  numeric: true,
                },
                {
                  key: 'expected',
                  header: 'Expected share',
                  cell: (v) => formatPercent(v.expected_share),
                  numeric: true,
                },
                {
                  key: 'players',
                  header: 'Players',
                  cell: (v) => formatInteger(v.players_exposed),
                  numeric: true,
                },
                { key: 'share', header: 'Share', cell: (v) => formatPercent(v.share), numeric: true },
                {
                  key: 'contaminated',
                  header: 'Contaminated',
                  cell: (v) => formatInteger(v.contaminated),
                  numeric: true,
                },
              ]}
            />
            <p className={`small ${r.sample_ratio_mismatch.flagged ? 'bad' : 'muted'}`}>
              Sample ratio {r.sample_ratio_mismatch.flagged ? 'MISMATCH' : 'check'}: χ² ={' '}
              {formatScore(r.sample_ratio_mismatch.statistic, 2)}, df {r.sample_ratio_mismatch.df}, p ={' '}
              {formatP(r.sample_ratio_mismatch.p_value)} ({r.sample_ratio_mismatch.method}).
            </p>
          </div>
          {r.metrics.map((m) => (
            <div className="card stack" key={`${m.metric}-${m.event_name ?? ''}`}>
              <h4>
                {metricLabel(m)} {m.primary ? <span className="badge">primary</span> : null}
              </h4>
              <DataTable
                caption={`${metricLabel(m)} per variant`}
                rows={m.variants}
                rowKey={(v) => v.variant}
                columns={metricColumns(m.unit, m.unit === 'share_of_players')}
              />
              <details className="small muted">
                <summary>How it is computed</summary>
                <p>{m.definition}</p>
                <p>
                  Value: {m.value_method}. Difference: {m.difference_method}. Test: {m.test_method}.
                </p>
              </details>
            </div>
          ))}
          <details className="small muted">
            <summary>Sample size plan</summary>
            <p>
              {r.sample_size.method}. α {formatScore(r.sample_size.alpha, 4)} per comparison, power{' '}
              {r.sample_size.power}, baseline{' '}
              {r.sample_size.baseline == null ? '–' : formatScore(r.sample_size.baseline, 4)}
              {r.sample_size.baseline_source ? ` (${r.sample_size.baseline_source.replace('_', ' ')})` : ''},
              minimum detectable effect {r.sample_size.minimum_detectable_effect ?? '–'}.
            </p>
            <p>{r.exposure.definition}</p>
          </details>
        </section>
      )}
    </QueryView>
  );
}

export function ExperimentsView({ gameId }: ViewProps) {
  const client = useQueryClient();
  const [params, setParams] = useSearchParams();
  const [creating, setCreating] = useState(false);
  const selected = Number(params.get('exp')) || null;
  const select = (id: number | null) => {
    const next = new URLSearchParams(params);
    if (id) next.set('exp', String(id));
    else next.delete('exp');
    setParams(next, { replace: true });
  };
  const list = useQuery({
    queryKey: EXPERIMENTS_KEY,
    queryFn: () => unwrap(api.GET('/api/sdk/experiments')),
  });
  const stop = useMutation({
    mutationFn: (id: number) =>
      unwrap(
        api.PATCH('/api/sdk/experiments/{id}', { params: { path: { id } }, body: { status: 'stopped' } }),
      ),
    onSuccess: (_, id) => {
      void client.invalidateQueries({ queryKey: EXPERIMENTS_KEY });
      void client.invalidateQueries({ queryKey: ['sdk', 'experiment-results', id] });
    },
  });
  const remove = useMutation({
    mutationFn: (id: number) => unwrap(api.DELETE('/api/sdk/experiments/{id}', { params: { path: { id } } })),
    onSuccess: (_, id) => {
      if (selected === id) select(null);
      void client.invalidateQueries({ queryKey: EXPERIMENTS_KEY });
    },
  });
  const columns: Column<Experiment>[] = [
    {
      key: 'key',
      header: 'Experiment',
      cell: (e) => (
        <button
          type="button"
          className="button ghost"
          onClick={() => select(e.id)}
          aria-pressed={selected === e.id}
        >
          {e.key}
        </button>
      ),
      sort: (e) => e.key,
    },
    {
      key: 'status',
      header: 'Status',
      cell: (e) => (
        <span className={`badge ${e.status === 'running' ? 'good' : 'muted'}`}>
          {e.status}
          {e.stopped_at ? ' ' : ''}
          {e.stopped_at ? <Time at={e.stopped_at} /> : null}
        </span>
      ),
      sort: (e) => e.status,
    },
    {
      key: 'variants',
      header: 'Variants (weight)',
      cell: (e) => e.variants.map((v) => `${v.key} (${v.weight})`).join(', '),
    },
    {
      key: 'metric',
      header: 'Primary metric',
      cell: (e) => metricLabel(e.primary_metric),
      sort: (e) => e.primary_metric.metric,
    },
    { key: 'start', header: 'Start day', cell: (e) => formatDay(e.start_day), sort: (e) => e.start_day },
    {
      key: 'actions',
      header: 'Actions',
      cell: (e) => (
        <span className="sdk-actions">
          <button type="button" className="button" onClick={() => select(e.id)}>
            Results
          </button>
          {e.status === 'running' ? (
            <button
              type="button"
              className="button"
              disabled={stop.isPending}
              onClick={() => {
                if (window.confirm(`Stop ${e.key}? This is final: assignment then answers the control.`))
                  stop.mutate(e.id);
              }}
            >
              Stop
            </button>
          ) : null}
          <button
            type="button"
            className="button danger"
            disabled={remove.isPending}
            onClick={() => {
              if (window.confirm(`Delete the experiment ${e.key}? Its definition is removed; events stay.`))
                remove.mutate(e.id);
            }}
          >
            Delete
          </button>
        </span>
      ),
    },
  ];
  return (
    <div className="stack">
      <div className="row">
        <button
          type="button"
          className="button primary"
          onClick={() => setCreating((c) => !c)}
          aria-expanded={creating}
        >
          {creating ? 'Close the form' : 'New experiment'}
        </button>
      </div>
      {creating ? (
        <CreateExperiment
          gameId={gameId}
          onCreated={(id) => {
            setCreating(false);
            select(id);
          }}
        />
      ) : null}
      {stop.error ? <ErrorState error={stop.error} /> : null}
      {remove.error ? <ErrorState error={remove.error} /> : null}
      <QueryView
        query={list}
        label="Loading experiments"
        empty={(d) =>
          d.experiments.every((e) => e.game_id !== gameId) ? (
            <Empty title="No experiment on this game yet">
              <p className="muted small">
                Create one above; the game then sends exposure events as players see variants.
              </p>
            </Empty>
          ) : null
        }
      >
        {(d) => (
          <section className="card" aria-labelledby="exp-list">
            <h3 id="exp-list">Experiments on this game</h3>
            <DataTable
              testId="experiments-table"
              caption="Experiments on this game, newest first"
              rows={d.experiments.filter((e) => e.game_id === gameId)}
              columns={columns}
              rowKey={(e) => e.id}
            />
          </section>
        )}
      </QueryView>
      {selected ? <ResultsPanel id={selected} /> : null}
    </div>
  );
}
