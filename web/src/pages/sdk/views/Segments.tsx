/** Segments: named player sets by conditions on their events; create, list with size, apply, delete. */
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useId, useState } from 'react';
import { useSearchParams } from 'react-router';
import { api, type paths, type Schemas, unwrap } from '../../../api/client';
import { type Column, DataTable } from '../../../components/DataTable';
import { Empty, ErrorState, QueryView } from '../../../components/states';
import { Time } from '../../../components/Time';
import { formatDay, formatInteger } from '../../../lib/format';
import { ConditionsEditor, emptyCondition, type ViewProps } from '../common';
import { type ConditionDraft, conditionText, EVENT_TYPES, type EventType, toConditions } from '../conditions';
import { withFilters } from '../range';

type Segment = Schemas['SdkSegment'];
type NewSegment = paths['/api/sdk/segments']['post']['requestBody']['content']['application/json'];
export const SEGMENTS_KEY = ['sdk', 'segments'] as const;

function SegmentSize({ id }: { id: number }) {
  const detail = useQuery({
    queryKey: [...SEGMENTS_KEY, id],
    queryFn: () => unwrap(api.GET('/api/sdk/segments/{id}', { params: { path: { id } } })),
    staleTime: 60_000,
  });
  if (detail.isPending) return <span className="muted">…</span>;
  if (detail.error)
    return (
      <span className="bad" title={String(detail.error)}>
        error
      </span>
    );
  const d = detail.data;
  return (
    <span title={`Players of the team's games matching from ${d.size_window.from} to ${d.size_window.to}`}>
      {formatInteger(d.size)}{' '}
      <span className="muted small">
        ({formatDay(d.size_window.from)}–{formatDay(d.size_window.to)})
      </span>
    </span>
  );
}

function CreateSegment() {
  const id = useId();
  const client = useQueryClient();
  const [name, setName] = useState('');
  const [match, setMatch] = useState<'all' | 'any'>('all');
  const [eventType, setEventType] = useState<EventType | ''>('');
  const [drafts, setDrafts] = useState<ConditionDraft[]>([emptyCondition()]);
  const [problem, setProblem] = useState<string | null>(null);
  const create = useMutation({
    mutationFn: (body: NewSegment) => unwrap(api.POST('/api/sdk/segments', { body })),
    onSuccess: () => {
      setName('');
      setDrafts([emptyCondition()]);
      setEventType('');
      return client.invalidateQueries({ queryKey: SEGMENTS_KEY });
    },
  });
  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (!name.trim()) {
      setProblem('Name the segment.');
      return;
    }
    const r = toConditions(drafts);
    if ('error' in r) {
      setProblem(r.error);
      return;
    }
    if (r.conditions.length === 0) {
      setProblem('Add at least one condition.');
      return;
    }
    setProblem(null);
    create.mutate({
      name: name.trim(),
      match,
      conditions: r.conditions,
      ...(eventType ? { event_type: eventType } : {}),
    });
  };
  return (
    <form
      className="card stack"
      onSubmit={submit}
      data-testid="segment-form"
      aria-labelledby={`${id}-t`}
      noValidate
    >
      <h3 id={`${id}-t`}>New segment</h3>
      <div className="row">
        <label>
          Name
          <input
            value={name}
            onChange={(e) => setName(e.target.value)}
            placeholder="Payers in Brazil"
            required
          />
        </label>
        <label>
          Match
          <select value={match} onChange={(e) => setMatch(e.target.value as 'all' | 'any')}>
            <option value="all">all conditions (on one event)</option>
            <option value="any">any condition</option>
          </select>
        </label>
        <label>
          Event type
          <select value={eventType} onChange={(e) => setEventType(e.target.value as EventType | '')}>
            <option value="">any type</option>
            {EVENT_TYPES.map((t) => (
              <option key={t} value={t}>
                {t}
              </option>
            ))}
          </select>
        </label>
      </div>
      <ConditionsEditor legend="Conditions (1 to 20)" drafts={drafts} onChange={setDrafts} min={1} />
      <div className="row">
        <button type="submit" className="button primary" disabled={create.isPending}>
          {create.isPending ? 'Creating…' : 'Create segment'}
        </button>
      </div>
      {problem ? (
        <p className="field-error" role="alert">
          {problem}
        </p>
      ) : null}
      {create.error ? <ErrorState error={create.error} /> : null}
      <p className="muted small">
        A player is in the segment over a view's range when any of their events in it (this game, the platform
        filter applied) matches: with "all", every condition on that same event.
      </p>
    </form>
  );
}

export function SegmentsView({ filters }: ViewProps) {
  const client = useQueryClient();
  const [params, setParams] = useSearchParams();
  const list = useQuery({ queryKey: SEGMENTS_KEY, queryFn: () => unwrap(api.GET('/api/sdk/segments')) });
  const remove = useMutation({
    mutationFn: (id: number) => unwrap(api.DELETE('/api/sdk/segments/{id}', { params: { path: { id } } })),
    onSuccess: (_, id) => {
      if (filters.segment === id) setParams(withFilters(params, { segment: null }), { replace: true });
      return client.invalidateQueries({ queryKey: SEGMENTS_KEY });
    },
  });
  const apply = (id: number | null) =>
    setParams(withFilters(params, { segment: id ? String(id) : null }), { replace: true });
  const columns: Column<Segment>[] = [
    {
      key: 'name',
      header: 'Name',
      cell: (s) => <strong>{s.name}</strong>,
      sort: (s) => s.name.toLowerCase(),
    },
    {
      key: 'conditions',
      header: 'Conditions',
      cell: (s) => (
        <span className="small">
          {s.event_type ? <span className="badge">{s.event_type}</span> : null}{' '}
          {s.conditions.map((c) => conditionText(c)).join(s.match === 'all' ? ' and ' : ' or ')}
        </span>
      ),
    },
    { key: 'size', header: 'Players (30 days)', cell: (s) => <SegmentSize id={s.id} />, numeric: true },
    { key: 'created', header: 'Created', cell: (s) => <Time at={s.created_at} />, sort: (s) => s.created_at },
    {
      key: 'actions',
      header: 'Actions',
      cell: (s) => (
        <span className="row">
          {filters.segment === s.id ? (
            <button type="button" className="button" onClick={() => apply(null)} aria-pressed="true">
              Applied: clear
            </button>
          ) : (
            <button type="button" className="button" onClick={() => apply(s.id)}>
              Apply to views
            </button>
          )}
          <button
            type="button"
            className="button danger"
            disabled={remove.isPending}
            onClick={() => {
              if (window.confirm(`Delete the segment “${s.name}”?`)) remove.mutate(s.id);
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
      <CreateSegment />
      {remove.error ? <ErrorState error={remove.error} /> : null}
      <QueryView
        query={list}
        label="Loading segments"
        empty={(d) =>
          d.segments.length === 0 ? (
            <Empty title="No segment yet">
              <p className="muted small">
                Define one above, then pick it in the Segment filter to narrow every view.
              </p>
            </Empty>
          ) : null
        }
      >
        {(d) => (
          <section className="card" aria-labelledby="seg-list">
            <h3 id="seg-list">Your team's segments</h3>
            <DataTable
              testId="segments-table"
              caption="Segments, newest first"
              rows={d.segments}
              columns={columns}
              rowKey={(s) => s.id}
            />
          </section>
        )}
      </QueryView>
    </div>
  );
}
