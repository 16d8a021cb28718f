/**
 * One game's SDK dashboards: a tab per analytics view (the `view` path segment), the date range,
 * granularity, platform and segment shared by every view through the search params.
 */

import { useQuery } from '@tanstack/react-query';
import { type ComponentType, useEffect, useMemo, useRef } from 'react';
import { Link, useParams, useSearchParams } from 'react-router';
import { api, unwrap } from '../../api/client';
import { PageHeader } from '../../components/Layout';
import { Empty } from '../../components/states';
import { formatDay, formatInteger } from '../../lib/format';
import { RequireAuth } from '../../lib/session';
import type { ViewProps } from './common';
import { analyticsQuery, PLATFORMS, PRESETS, readFilters, type SdkFilters, withFilters } from './range';
import type { SdkViewId } from './view-ids';
import { AdsView } from './views/Ads';
import { BrandView } from './views/Brand';
import { BrandLiftView } from './views/BrandLift';
import { CrashesView } from './views/Crashes';
import { EngagementView } from './views/Engagement';
import { ErrorsView } from './views/Errors';
import { ExperimentsView } from './views/Experiments';
import { ExportView } from './views/Export';
import { FunnelView } from './views/Funnel';
import { GeoView } from './views/Geo';
import { LevelsView } from './views/Levels';
import { MonetizationView } from './views/Monetization';
import { OverviewView } from './views/Overview';
import { PerformanceView } from './views/Performance';
import { RetentionView } from './views/Retention';
import { SEGMENTS_KEY, SegmentsView } from './views/Segments';

interface ViewDef {
  id: SdkViewId;
  label: string;
  component: ComponentType<ViewProps>;
  /** Which shared filters the view reads (the toolbar greys out the others). */
  uses: { range: boolean; segment: boolean; granularity: boolean };
}

const ALL = { range: true, segment: true, granularity: true };
const NO_SERIES = { range: true, segment: true, granularity: false };

export const VIEWS: ViewDef[] = [
  { id: 'overview', label: 'Overview', component: OverviewView, uses: ALL },
  { id: 'engagement', label: 'Engagement', component: EngagementView, uses: ALL },
  { id: 'retention', label: 'Retention', component: RetentionView, uses: NO_SERIES },
  { id: 'monetization', label: 'Monetization', component: MonetizationView, uses: ALL },
  { id: 'ads', label: 'Ads', component: AdsView, uses: ALL },
  { id: 'geo', label: 'Geo', component: GeoView, uses: NO_SERIES },
  { id: 'levels', label: 'Levels', component: LevelsView, uses: NO_SERIES },
  { id: 'funnel', label: 'Funnel', component: FunnelView, uses: NO_SERIES },
  { id: 'performance', label: 'Performance', component: PerformanceView, uses: NO_SERIES },
  { id: 'crashes', label: 'Crashes', component: CrashesView, uses: ALL },
  { id: 'errors', label: 'Errors', component: ErrorsView, uses: ALL },
  { id: 'brand', label: 'Brand', component: BrandView, uses: NO_SERIES },
  { id: 'brand-lift', label: 'Brand lift', component: BrandLiftView, uses: NO_SERIES },
  {
    id: 'experiments',
    label: 'Experiments',
    component: ExperimentsView,
    uses: { range: false, segment: false, granularity: false },
  },
  {
    id: 'segments',
    label: 'Segments',
    component: SegmentsView,
    uses: { range: false, segment: true, granularity: false },
  },
  {
    id: 'export',
    label: 'Export',
    component: ExportView,
    uses: { range: true, segment: false, granularity: false },
  },
];

/** The search params a tab link keeps: the shared filters, not one view's own state. */
const SHARED = ['days', 'from', 'to', 'granularity', 'platform', 'segment'];

function Toolbar({ filters, view }: { filters: SdkFilters; view: ViewDef }) {
  const [params, setParams] = useSearchParams();
  const segments = useQuery({ queryKey: SEGMENTS_KEY, queryFn: () => unwrap(api.GET('/api/sdk/segments')) });
  const set = (changes: Record<string, string | null>) =>
    setParams(withFilters(params, changes), { replace: true });
  return (
    <fieldset className="card sdk-toolbar" data-testid="sdk-filters">
      <legend className="sr-only">Filters for every view</legend>
      <fieldset className="segmented" aria-label="Date range preset" disabled={!view.uses.range}>
        {PRESETS.map((d) => (
          <button
            key={d}
            type="button"
            aria-pressed={filters.days === d}
            onClick={() => set({ days: String(d), from: null, to: null })}
          >
            {d} days
          </button>
        ))}
      </fieldset>
      <label>
        From
        <input
          type="date"
          value={filters.from}
          max={filters.to}
          disabled={!view.uses.range}
          onChange={(e) => e.target.value && set({ from: e.target.value, to: filters.to })}
        />
      </label>
      <label>
        To
        <input
          type="date"
          value={filters.to}
          disabled={!view.uses.range}
          onChange={(e) => e.target.value && set({ from: filters.from, to: e.target.value })}
        />
      </label>
      <label>
        Per
        <select
          value={filters.granularity}
          disabled={!view.uses.granularity}
          onChange={(e) => set({ granularity: e.target.value === 'week' ? 'week' : null })}
        >
          <option value="day">day</option>
          <option value="week">ISO week</option>
        </select>
      </label>
      <label>
        Platform
        <select
          value={filters.platform ?? ''}
          disabled={!view.uses.range}
          onChange={(e) => set({ platform: e.target.value || null })}
        >
          <option value="">all platforms</option>
          {PLATFORMS.map((p) => (
            <option key={p} value={p}>
              {p}
            </option>
          ))}
        </select>
      </label>
      <label>
        Segment
        <select
          value={filters.segment ?? ''}
          disabled={!view.uses.segment}
          onChange={(e) => set({ segment: e.target.value || null })}
        >
          <option value="">all players</option>
          {(segments.data?.segments ?? []).map((s) => (
            <option key={s.id} value={s.id}>
              {s.name}
            </option>
          ))}
          {filters.segment &&
          segments.data &&
          !segments.data.segments.some((s) => s.id === filters.segment) ? (
            <option value={filters.segment}>segment {filters.segment} (not found)</option>
          ) : null}
        </select>
      </label>
    </fieldset>
  );
}

function GameSummary({ gameId }: { gameId: string }) {
  const games = useQuery({ queryKey: ['sdk', 'games'], queryFn: () => unwrap(api.GET('/api/sdk/games')) });
  const rows = (games.data?.games ?? []).filter((g) => g.game_id === gameId);
  if (games.isPending || games.error) return null;
  if (rows.length === 0) {
    return (
      <p className="notice" role="note">
        Your team has no events for this game id yet: the views stay empty until some arrive.{' '}
        <Link to="/sdk">See your games and how to send events</Link>.
      </p>
    );
  }
  return (
    <p className="muted small sdk-game-summary">
      {rows.map((g) => (
        <span key={g.platform}>
          <span className="badge">{g.platform}</span> events {formatDay(g.first_seen)} –{' '}
          {formatDay(g.last_seen)} · {formatInteger(g.events_24h)} events / {formatInteger(g.players_24h)}{' '}
          players in 24 h
        </span>
      ))}
    </p>
  );
}

function SdkGame() {
  const { gameId = '', view: viewParam } = useParams();
  const [params] = useSearchParams();
  const filters = useMemo(() => readFilters(params, new Date()), [params]);
  const query = useMemo(() => analyticsQuery(filters), [filters]);
  const view = VIEWS.find((v) => v.id === (viewParam ?? 'overview'));
  const shared = useMemo(() => {
    const keep = new URLSearchParams();
    for (const k of SHARED) {
      const v = params.get(k);
      if (v) keep.set(k, v);
    }
    const s = keep.toString();
    return s ? `?${s}` : '';
  }, [params]);
  const base = `/sdk/${encodeURIComponent(gameId)}`;
  const View = view?.component;
  const tabs = useRef<HTMLUListElement>(null);
  // On a phone the tabs scroll sideways: keep the open one in sight.
  // biome-ignore lint/correctness/useExhaustiveDependencies: runs again when another view opens
  useEffect(() => {
    const list = tabs.current;
    const current = list?.querySelector<HTMLElement>('[aria-current="page"]');
    if (list && current && list.scrollWidth > list.clientWidth) {
      list.scrollLeft = current.offsetLeft - list.offsetLeft - (list.clientWidth - current.offsetWidth) / 2;
    }
  }, [view?.id]);
  return (
    <div className="page sdk-page">
      <PageHeader title={`Game ${gameId}`}>
        <Link to="/sdk">All SDK games</Link>
      </PageHeader>
      <GameSummary gameId={gameId} />
      {view && (view.uses.range || view.uses.segment) ? <Toolbar filters={filters} view={view} /> : null}
      <nav aria-label="Analytics views" className="sdk-tabs-nav">
        <ul className="tabs sdk-tabs" data-testid="sdk-tabs" ref={tabs}>
          {VIEWS.map((v) => {
            const active = v.id === view?.id;
            return (
              <li key={v.id}>
                <Link
                  to={`${base}/${v.id}${shared}`}
                  className={active ? 'active' : undefined}
                  aria-current={active ? 'page' : undefined}
                >
                  {v.label}
                </Link>
              </li>
            );
          })}
        </ul>
      </nav>
      {view && View ? (
        <section className="stack" aria-labelledby="sdk-view-title" data-testid={`sdk-view-${view.id}`}>
          <h2 id="sdk-view-title">{view.label}</h2>
          <View gameId={gameId} filters={filters} query={query} />
        </section>
      ) : (
        <Empty title={`There is no view named “${viewParam}”`}>
          <Link to={`${base}/overview${shared}`}>Open the overview</Link>
        </Empty>
      )}
    </div>
  );
}

export function Component() {
  return (
    <RequireAuth>
      <SdkGame />
    </RequireAuth>
  );
}
