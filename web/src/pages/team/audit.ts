/**
 * The audit log as the page shows it: action names, the filters as API query parameters, a
 * compact before → after, what an entry was done to, the CSV's file name. Pure: no DOM, no fetching.
 */
import type { paths, Schemas } from '../../api/client';

export type AuditEntry = Schemas['AuditEntry'];
type AuditParams = NonNullable<paths['/api/team/audit']['get']['parameters']['query']>;
export type AuditAction = NonNullable<AuditParams['action']>;

/** Every action the API records (a Record, so an action added to the schema fails the type check here). */
export const AUDIT_ACTIONS: Record<AuditAction, string> = {
  'member.signed_in': 'Member signed in',
  'team.created': 'Team created',
  'team.renamed': 'Team renamed',
  'team.deleted': 'Team deleted',
  'team.seats_changed': 'Seats changed',
  'invite.created': 'Invitation sent',
  'invite.revoked': 'Invitation cancelled',
  'invite.accepted': 'Invitation accepted',
  'member.role_changed': 'Role changed',
  'member.removed': 'Member removed',
  'member.left': 'Member left',
  'ownership.transferred': 'Ownership transferred',
  'api_key.created': 'API key created',
  'api_key.revoked': 'API key revoked',
  'plan.changed': 'Plan changed',
  'password.changed': 'Password changed',
  'password.reset': 'Password reset',
};
export const AUDIT_ACTION_NAMES = Object.keys(AUDIT_ACTIONS) as AuditAction[];

export function isAuditAction(value: string): value is AuditAction {
  return Object.hasOwn(AUDIT_ACTIONS, value);
}

export function actionLabel(action: string): string {
  return isAuditAction(action) ? AUDIT_ACTIONS[action] : action;
}

export interface AuditFilters {
  action: AuditAction | '';
  /** yyyy-mm-dd (a date input's value), the viewer's day; '' for no bound. */
  since: string;
  until: string;
}

export const NO_FILTERS: AuditFilters = { action: '', since: '', until: '' };

/** The start of a yyyy-mm-dd day in the viewer's zone, `days` later; null when not a date. */
function dayStart(day: string, days = 0): Date | null {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(day);
  if (!m) return null;
  const d = new Date(Number(m[1]), Number(m[2]) - 1, Number(m[3]) + days);
  return Number.isNaN(d.getTime()) ? null : d;
}

/** The API's query for the filters: since from the start of its day, until through the end of its day. */
export function auditQuery(f: AuditFilters): Pick<AuditParams, 'action' | 'since' | 'until'> {
  const since = dayStart(f.since);
  const until = dayStart(f.until, 1);
  return {
    ...(f.action ? { action: f.action } : {}),
    ...(since ? { since: since.toISOString() } : {}),
    ...(until ? { until: until.toISOString() } : {}),
  };
}

/** Whether the dates contradict each other (until before since). */
export function badRange(f: AuditFilters): boolean {
  const since = dayStart(f.since);
  const until = dayStart(f.until);
  return since !== null && until !== null && until < since;
}

function value(v: unknown): string {
  if (v === null || v === undefined) return '—';
  if (typeof v === 'string') return v;
  if (typeof v === 'number' || typeof v === 'boolean') return String(v);
  if (Array.isArray(v)) return v.map(value).join(', ');
  return JSON.stringify(v);
}

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

/**
 * before → after in one line: the fields that changed ("role: viewer → editor"), the state after
 * a creation ("email: a@b.c, role: viewer"), the state before a removal ("was role: editor").
 */
export function describeChange(before: unknown, after: unknown): string {
  const hasBefore = before !== null && before !== undefined;
  const hasAfter = after !== null && after !== undefined;
  if (!hasBefore && !hasAfter) return '';
  if (isRecord(before) && isRecord(after)) {
    const keys = [...new Set([...Object.keys(before), ...Object.keys(after)])];
    const changed = keys.filter((k) => !same(before[k], after[k]));
    return changed.map((k) => `${k}: ${value(before[k])} → ${value(after[k])}`).join('; ');
  }
  const fields = (o: Record<string, unknown>) =>
    Object.entries(o)
      .map(([k, v]) => `${k}: ${value(v)}`)
      .join(', ');
  if (!hasBefore) return isRecord(after) ? fields(after) : value(after);
  if (!hasAfter) return `was ${isRecord(before) ? fields(before) : value(before)}`;
  return `${value(before)} → ${value(after)}`;
}

function field(entry: AuditEntry, key: string): string | undefined {
  for (const side of [entry.after, entry.before]) {
    if (isRecord(side) && typeof side[key] === 'string') return side[key] as string;
  }
  return undefined;
}

/**
 * What an entry was done to, named as a person would: an address, a key's name, the team. A user
 * the entry does not name by address is looked up with `emailOf` (the team's members).
 */
export function auditTarget(entry: AuditEntry, emailOf?: (userId: string) => string | undefined): string {
  const email =
    field(entry, 'email') ??
    (entry.target_type === 'user' && entry.target_id ? emailOf?.(entry.target_id) : undefined);
  const name = field(entry, 'name');
  switch (entry.target_type) {
    case null:
      return '—';
    case 'user':
      return email ?? `user ${entry.target_id ?? '?'}`;
    case 'invite':
      return email ? `invitation of ${email}` : `invitation ${entry.target_id ?? '?'}`;
    case 'api_key':
      return name ? `key “${name}”` : `key ${entry.target_id ?? '?'}`;
    case 'team':
      return name ? `team “${name}”` : `team ${entry.target_id ?? '?'}`;
    default:
      return `${entry.target_type} ${entry.target_id ?? ''}`.trim();
  }
}

/** The file name of a Content-Disposition header (attachment; filename="…"), or `fallback`. */
export function attachmentName(header: string | null, fallback = 'audit.csv'): string {
  const m = /filename="([^"]+)"/.exec(header ?? '') ?? /filename=([^;]+)/.exec(header ?? '');
  const name = m?.[1]?.trim().replace(/[/\\]/g, '_');
  return name || fallback;
}
