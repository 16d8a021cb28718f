/** Brand lift: per survey, favourable rates of exposed vs control, the lift with its CI and p-value. */
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useId, useMemo, useState } from 'react';
import { api, type Schemas, unwrap } from '../../../api/client';
import { Chart } from '../../../components/Chart';
import { type Column, DataTable } from '../../../components/DataTable';
import { Empty, ErrorState, QueryView } from '../../../components/states';
import { formatInteger, formatPercent } from '../../../lib/format';
import { COLOURS, Method, RangeNote, type ViewProps } from '../common';
import { formatP } from '../sdk-data';

type Survey = Schemas['SdkBrandLift']['surveys'][number];
type CohortName = 'exposed' | 'control' | 'unassigned';
type CohortRow = Survey['cohorts']['exposed'] & { cohort: CohortName };

const ci = (c: { low: number; high: number } | null) =>
  c ? `${formatPercent(c.low)} – ${formatPercent(c.high)}` : '–';
const points = (v: number | null) =>
  v == null ? '–' : `${v > 0 ? '+' : v < 0 ? '−' : '±'}${(Math.abs(v) * 100).toFixed(1)} pts`;
const ciPoints = (c: { low: number; high: number } | null) =>
  c ? `${points(c.low)} to ${points(c.high)}` : '–';

const cohortColumns: Column<CohortRow>[] = [
  { key: 'cohort', header: 'Cohort', cell: (c) => c.cohort },
  { key: 'shown', header: 'Shown', cell: (c) => formatInteger(c.shown), numeric: true },
  {
    key: 'responses',
    header: 'Responses',
    cell: (c) => formatInteger(c.responses),
    sort: (c) => c.responses,
    numeric: true,
  },
  { key: 'favorable', header: 'Favourable', cell: (c) => formatInteger(c.favorable), numeric: true },
  {
    key: 'rate',
    header: 'Favourable rate',
    cell: (c) => formatPercent(c.favorable_rate),
    sort: (c) => c.favorable_rate,
    numeric: true,
  },
  { key: 'ci', header: '95% CI (Wilson)', cell: (c) => ci(c.favorable_rate_ci), numeric: true },
];
const answerColumns: Column<Survey['answers'][number]>[] = [
  { key: 'answer', header: 'Answer', cell: (a) => <code>{a.answer}</code>, sort: (a) => a.answer },
  {
    key: 'responses',
    header: 'Responses',
    cell: (a) => formatInteger(a.responses),
    sort: (a) => a.responses,
    numeric: true,
  },
  { key: 'share', header: 'Share', cell: (a) => formatPercent(a.share), sort: (a) => a.share, numeric: true },
  {
    key: 'exposed',
    header: 'Exposed',
    cell: (a) => formatInteger(a.exposed),
    sort: (a) => a.exposed,
    numeric: true,
  },
  {
    key: 'control',
    header: 'Control',
    cell: (a) => formatInteger(a.control),
    sort: (a) => a.control,
    numeric: true,
  },
  {
    key: 'unassigned',
    header: 'Unassigned',
    cell: (a) => formatInteger(a.unassigned),
    sort: (a) => a.unassigned,
    numeric: true,
  },
];

/** Which answer keys count as favourable (PUT /api/sdk/surveys/{survey_id}). */
function FavourableForm({ gameId, survey }: { gameId: string; survey: Survey }) {
  const id = useId();
  const client = useQueryClient();
  const [chosen, setChosen] = useState<string[]>(survey.favorable_answers ?? []);
  const invalidate = () => client.invalidateQueries({ queryKey: ['sdk', 'brand-lift', gameId] });
  const save = useMutation({
    mutationFn: () =>
      unwrap(
        api.PUT('/api/sdk/surveys/{survey_id}', {
          params: { path: { survey_id: survey.survey_id }, query: { game_id: gameId } },
          body: { favorable_answers: chosen },
        }),
      ),
    onSuccess: invalidate,
  });
  const clear = useMutation({
    mutationFn: () =>
      unwrap(
        api.DELETE('/api/sdk/surveys/{survey_id}', {
          params: { path: { survey_id: survey.survey_id }, query: { game_id: gameId } },
        }),
      ),
    onSuccess: () => {
      setChosen([]);
      return invalidate();
    },
  });
  const submit = (e: FormEvent) => {
    e.preventDefault();
    save.mutate();
  };
  const keys = [
    ...new Set([...survey.answers.map((a) => a.answer), ...(survey.favorable_answers ?? [])]),
  ].sort();
  return (
    <form className="stack" onSubmit={submit} aria-labelledby={`${id}-t`}>
      <fieldset>
        <legend id={`${id}-t`}>
          Answers that count as favourable (for responses without their own flag)
        </legend>
        <div className="row">
          {keys.map((k) => (
            <label className="inline" key={k}>
              <input
                type="checkbox"
                checked={chosen.includes(k)}
                onChange={(e) => setChosen((c) => (e.target.checked ? [...c, k] : c.filter((x) => x !== k)))}
              />{' '}
              {k}
            </label>
          ))}
        </div>
      </fieldset>
      <div className="row">
        <button type="submit" className="button primary" disabled={save.isPending || chosen.length === 0}>
          Save favourable answers
        </button>
        {survey.favorable_answers ? (
          <button
            type="button"
            className="button danger"
            disabled={clear.isPending}
            onClick={() => {
              if (
                window.confirm(
                  `Remove the definition of ${survey.survey_id}? Only favorable: true will count.`,
                )
              )
                clear.mutate();
            }}
          >
            Remove definition
          </button>
        ) : null}
      </div>
      {save.error ? <ErrorState error={save.error} /> : null}
      {clear.error ? <ErrorState error={clear.error} /> : null}
    </form>
  );
}

function SurveyCard({ gameId, survey }: { gameId: string; survey: Survey }) {
  const id = useId();
  const rows: CohortRow[] = (['exposed', 'control', 'unassigned'] as const).map((c) => ({
    ...survey.cohorts[c],
    cohort: c,
  }));
  const option = useMemo(() => {
    const exposed = survey.cohorts.exposed;
    const control = survey.cohorts.control;
    const val = (r: number | null) => (r == null ? null : Math.round(r * 1000) / 10);
    return {
      grid: { left: 8, right: 16, top: 16, bottom: 8, containLabel: true },
      tooltip: { trigger: 'axis', axisPointer: { type: 'shadow' } },
      xAxis: { type: 'value', max: 100, axisLabel: { formatter: '{value}%' } },
      yAxis: { type: 'category', data: ['Control', 'Exposed'] },
      series: [
        {
          name: 'Favourable rate',
          type: 'bar',
          data: [
            { value: val(control.favorable_rate), itemStyle: { color: COLOURS.muted } },
            { value: val(exposed.favorable_rate), itemStyle: { color: COLOURS.primary } },
          ],
          label: { show: true, position: 'right', formatter: '{c}%' },
        },
      ],
    };
  }, [survey]);
  const l = survey.lift;
  const significant = l.p_value != null && l.p_value < 0.05;
  return (
    <article className="card stack" aria-labelledby={`${id}-t`} data-testid="brand-lift-survey">
      <div className="page-header">
        <h3 id={`${id}-t`}>
          Survey <code>{survey.survey_id}</code>
        </h3>
        <span className={`badge ${survey.sufficient ? 'good' : 'warn'}`}>
          {survey.sufficient ? 'sufficient sample' : 'indicative only'}
        </span>
      </div>
      {!survey.sufficient && survey.insufficient_reason ? (
        <p className="notice small">{survey.insufficient_reason}</p>
      ) : null}
      <div className="stats">
        <div className="stat">
          <div className="label">Absolute lift</div>
          <div
            className={`value ${significant && l.absolute != null ? (l.absolute > 0 ? 'good' : 'bad') : ''}`}
          >
            {points(l.absolute)}
          </div>
          <div className="note">95% CI {ciPoints(l.ci)}</div>
        </div>
        <div className="stat">
          <div className="label">Relative lift</div>
          <div className="value">{formatPercent(l.relative, { signed: true })}</div>
          <div className="note">over the control rate</div>
        </div>
        <div className="stat">
          <div className="label">p-value</div>
          <div className="value">{formatP(l.p_value)}</div>
          <div className="note">
            {l.p_value == null
              ? 'needs responses in both cohorts'
              : significant
                ? 'significant at 5%'
                : 'not significant at 5%'}
          </div>
        </div>
      </div>
      <div className="grid-2">
        <Chart
          height={160}
          option={option}
          label={`Favourable rate: exposed ${formatPercent(survey.cohorts.exposed.favorable_rate)}, control ${formatPercent(survey.cohorts.control.favorable_rate)}`}
        />
        <DataTable
          caption={`Cohorts of ${survey.survey_id}`}
          rows={rows}
          columns={cohortColumns}
          rowKey={(r) => r.cohort}
        />
      </div>
      <details>
        <summary>Answers ({formatInteger(survey.answers.length)})</summary>
        <DataTable
          caption={`Answers to ${survey.survey_id}`}
          rows={survey.answers}
          columns={answerColumns}
          rowKey={(a) => a.answer}
        />
      </details>
      <p className="small muted">
        {survey.favorable_rule === 'favorable_flag_only'
          ? 'No definition: only responses sending favorable: true count as favourable.'
          : `Favourable: favorable: true, or an answer in ${(survey.favorable_answers ?? []).join(', ')} when the response has no flag.`}{' '}
        {formatInteger(survey.responses_without_flag)} responses had no flag of their own.
      </p>
      <details>
        <summary>Define favourable answers</summary>
        <FavourableForm gameId={gameId} survey={survey} />
      </details>
    </article>
  );
}

export function BrandLiftView({ gameId, query }: ViewProps) {
  const lift = useQuery({
    queryKey: ['sdk', 'brand-lift', gameId, query],
    queryFn: () =>
      unwrap(
        api.GET('/api/sdk/analytics/{game_id}/brand-lift', { params: { path: { game_id: gameId }, query } }),
      ),
  });
  return (
    <QueryView
      query={lift}
      label="Loading brand lift"
      empty={(d) =>
        d.surveys.length === 0 ? (
          <Empty title="No brand-lift survey in this range yet">
            <p className="muted small">
              The runtime's survey flow sends <code>brand_survey_shown</code> and{' '}
              <code>brand_survey_response</code> events (survey_id, answer, cohort exposed/control).
            </p>
          </Empty>
        ) : null
      }
    >
      {(d) => (
        <div className="stack">
          <RangeNote data={d} />
          {d.surveys.map((s) => (
            <SurveyCard key={s.survey_id} gameId={gameId} survey={s} />
          ))}
          <Method>
            The lift is read as indicative until each cohort has {d.min_responses_per_cohort} responses. Lift
            CI: {d.ci_method}. p-value: {d.test_method}. {d.cohort_rule}
          </Method>
        </div>
      )}
    </QueryView>
  );
}
