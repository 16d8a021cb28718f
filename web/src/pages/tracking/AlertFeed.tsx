/**
 * The alert feed: each rule with what happened last, unread first; mark one read or unread, or all
 * read; open a rule's firing history (GET /api/alerts/{id}/events) in a panel.
 */
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { api, unwrap } from '../../api/client';
import { Empty, ErrorState, QueryView } from '../../components/states';
import { Time } from '../../components/Time';
import { ALERTS_KEY, eventsKey, gameName } from './queries';
import {
  ALERT_TYPES,
  type Alert,
  feedOrder,
  formatThreshold,
  type GameResult,
  unreadCount,
} from './tracking-data';
import { UnreadBadge } from './UnreadBadge';

const EVENTS_SHOWN = 50;

function History({ alert }: { alert: Alert }) {
  const events = useQuery({
    queryKey: eventsKey(alert.id),
    queryFn: () =>
      unwrap(
        api.GET('/api/alerts/{alert_id}/events', {
          params: { path: { alert_id: alert.id }, query: { limit: EVENTS_SHOWN } },
        }),
      ),
  });
  return (
    <QueryView
      query={events}
      label="Loading the firings"
      empty={(d) => (d.events.length === 0 ? <p className="muted small">It has not fired yet.</p> : null)}
    >
      {(d) => (
        <ol className="event-list">
          {d.events.map((e) => (
            <li key={`${e.fired_at}-${e.message}`}>
              <Time at={e.fired_at} /> — {e.message}
            </li>
          ))}
          {d.events.length === EVENTS_SHOWN ? (
            <li className="muted small">The {EVENTS_SHOWN} most recent firings are shown.</li>
          ) : null}
        </ol>
      )}
    </QueryView>
  );
}

function FeedItem({ alert, games }: { alert: Alert; games: Map<number, GameResult | null> }) {
  const client = useQueryClient();
  const [open, setOpen] = useState(false);
  const panelId = `alert-history-${alert.id}`;
  const mark = useMutation({
    mutationFn: (viewed: boolean) =>
      unwrap(
        api.PATCH('/api/alerts/{alert_id}', { params: { path: { alert_id: alert.id } }, body: { viewed } }),
      ),
    onSuccess: (updated) =>
      client.setQueryData<Alert[]>(ALERTS_KEY, (old) => old?.map((a) => (a.id === updated.id ? updated : a))),
    onSettled: () => client.invalidateQueries({ queryKey: ALERTS_KEY }),
  });
  const name = gameName(games, alert.game_id);
  return (
    <li className={alert.viewed ? 'feed-item' : 'feed-item unread'}>
      <div className="feed-head">
        <div>
          {alert.viewed ? null : <span className="badge new-badge">New</span>} <strong>{name}</strong>{' '}
          <span className="muted small">
            {ALERT_TYPES[alert.type].label} · {formatThreshold(alert.type, alert.threshold)}
          </span>
        </div>
        <div className="row feed-actions">
          <button
            type="button"
            className="button"
            disabled={mark.isPending}
            onClick={() => mark.mutate(!alert.viewed)}
          >
            {alert.viewed ? 'Mark unread' : 'Mark read'}
            <span className="sr-only">: {alert.message}</span>
          </button>
          <button
            type="button"
            className="button ghost"
            aria-expanded={open}
            aria-controls={panelId}
            onClick={() => setOpen((o) => !o)}
          >
            {open ? 'Hide history' : 'History'}
            <span className="sr-only">
              {' '}
              of the {ALERT_TYPES[alert.type].label} rule on {name}
            </span>
          </button>
        </div>
      </div>
      <p className="feed-message">{alert.message}</p>
      <p className="muted small feed-when">
        {alert.last_fired_at ? (
          <>
            Last fired <Time at={alert.last_fired_at} relative />
          </>
        ) : (
          <>
            Watching since <Time at={alert.created_at} relative /> · not fired yet
          </>
        )}
      </p>
      {mark.error ? <ErrorState error={mark.error} /> : null}
      <div id={panelId} hidden={!open} className="feed-history">
        {open ? <History alert={alert} /> : null}
      </div>
    </li>
  );
}

export function AlertFeed({ alerts, games }: { alerts: Alert[]; games: Map<number, GameResult | null> }) {
  const client = useQueryClient();
  const [onlyUnread, setOnlyUnread] = useState(false);
  const unread = unreadCount(alerts);
  const markAll = useMutation({
    mutationFn: () => unwrap(api.POST('/api/alerts/viewed')),
    onSettled: () => client.invalidateQueries({ queryKey: ALERTS_KEY }),
  });
  const shown = feedOrder(onlyUnread ? alerts.filter((a) => !a.viewed) : alerts);
  return (
    <section className="card stack" aria-labelledby="feed-title" data-testid="alert-feed">
      <div className="page-header">
        <h2 id="feed-title">
          Alert feed <UnreadBadge count={unread} />
        </h2>
        <div className="page-actions">
          <fieldset className="segmented" aria-label="Show">
            <button type="button" aria-pressed={!onlyUnread} onClick={() => setOnlyUnread(false)}>
              All
            </button>
            <button type="button" aria-pressed={onlyUnread} onClick={() => setOnlyUnread(true)}>
              Unread
            </button>
          </fieldset>
          <button
            type="button"
            className="button"
            disabled={unread === 0 || markAll.isPending}
            onClick={() => markAll.mutate()}
          >
            Mark all read
          </button>
        </div>
      </div>
      {markAll.error ? <ErrorState error={markAll.error} /> : null}
      {markAll.data ? (
        <p className="muted small" role="status">
          {markAll.data.count === 1 ? '1 alert marked read.' : `${markAll.data.count} alerts marked read.`}
        </p>
      ) : null}
      {shown.length === 0 ? (
        <Empty title={onlyUnread ? 'Nothing unread' : 'No alerts yet'}>
          <p>
            {onlyUnread
              ? 'Every alert is read. New firings show up here, unread.'
              : 'Create an alert rule: when it fires, what happened shows up here, unread.'}
          </p>
        </Empty>
      ) : (
        <ul className="feed">
          {shown.map((a) => (
            <FeedItem key={a.id} alert={a} games={games} />
          ))}
        </ul>
      )}
    </section>
  );
}
