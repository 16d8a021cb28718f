/**
 * The count of unread alerts (rules whose `viewed` is false) as a hook and a small badge, for the
 * tracking page's feed heading and, later, the navigation. Shares the alert list query with the
 * page, so marking an alert read there updates every badge.
 */
import { useMe } from '../../lib/session';
import { useAlerts } from './queries';
import { unreadCount } from './tracking-data';

/** Unread alerts of the signed-in user; 0 when anonymous or still loading. */
export function useUnreadAlerts(): number {
  const me = useMe();
  const alerts = useAlerts(Boolean(me.data));
  return unreadCount(alerts.data);
}

/** "3" in a badge with "unread alerts" for screen readers; nothing when every alert is read. */
export function UnreadBadge({ count, testId = 'unread-badge' }: { count?: number; testId?: string }) {
  const fromQuery = useUnreadAlerts();
  const n = count ?? fromQuery;
  if (n === 0) return null;
  return (
    <span className="badge unread-badge" data-testid={testId}>
      {n > 99 ? '99+' : n}
      <span className="sr-only"> unread {n === 1 ? 'alert' : 'alerts'}</span>
    </span>
  );
}
