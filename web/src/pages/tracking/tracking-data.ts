/**
 * The tracking page's logic without React: what each alert type means and takes as a threshold,
 * the plan caps, the feed's order, game look-ups by universe id, delivery labels, and webhook
 * secrets. Pure (no I/O, no DOM), so it is unit-tested in node.
 */
import type { Schemas } from '../../api/client';
import { formatInteger } from '../../lib/format';

export type Alert = Schemas['Alert'];
export type AlertType = Alert['type'];
export type GameResult = Schemas['GameSearchResult'];
export type Delivery = Schemas['WebhookDelivery'];
export type PlanInfo = Schemas['PlanInfo'];

export interface AlertTypeInfo {
  label: string;
  /** One line: when it fires. */
  fires: string;
  /** What the threshold is, in the units the form asks for. */
  threshold: string;
  /** Used when the threshold is left empty; undefined: the type needs one. */
  defaultThreshold?: number;
  min: number;
  max?: number;
  integer?: boolean;
}

/** The five types in the API's order (DECISIONS §6; the server's OpenAPI says the same). */
export const ALERT_TYPES: Record<AlertType, AlertTypeInfo> = {
  ccu_spike: {
    label: 'CCU spike',
    fires: 'Fires when the game’s concurrent players reach the threshold or more.',
    threshold: 'CCU level (required)',
    min: 0,
  },
  ccu_drop: {
    label: 'CCU drop',
    fires: 'Fires when the game’s concurrent players fall to the threshold or below.',
    threshold: 'CCU level (required)',
    min: 0,
  },
  trend_change: {
    label: 'Trend change',
    fires: 'Fires when the 24 h trend turns from up to down or back; smaller trend scores are ignored.',
    threshold: 'Minimum |trend score|, 0 to 100',
    defaultThreshold: 10,
    min: 0,
    max: 100,
  },
  competitor: {
    label: 'Competitor',
    fires: 'Fires when another game of the same genre overtakes this one or reaches the threshold CCU.',
    threshold: 'CCU a rival must reach (required)',
    min: 0,
  },
  rank_change: {
    label: 'Rank change',
    fires: 'Fires when the game’s rank by CCU within its genre moves by the threshold or more places.',
    threshold: 'Places moved, a whole number ≥ 1',
    defaultThreshold: 3,
    min: 1,
    integer: true,
  },
};

export const ALERT_TYPE_KEYS = Object.keys(ALERT_TYPES) as AlertType[];

/** Thresholds may be fractional (12.5 CCU): every digit the user typed, up to two decimals. */
const exact = new Intl.NumberFormat('en-US', { maximumFractionDigits: 2 });

/** "450,000 CCU", "±10", "3 places": a threshold as a person reads it. */
export function formatThreshold(type: AlertType, threshold: number): string {
  switch (type) {
    case 'ccu_spike':
    case 'ccu_drop':
    case 'competitor':
      return `${exact.format(threshold)} CCU`;
    case 'trend_change':
      return `±${exact.format(threshold)}`;
    case 'rank_change':
      return `${formatInteger(threshold)} ${threshold === 1 ? 'place' : 'places'}`;
  }
}

/**
 * The threshold the form sends for `raw` (undefined: leave it to the server's default), or the
 * sentence saying why not. The server checks again; this only spares a round trip.
 */
export function parseThreshold(
  type: AlertType,
  raw: string,
): { value: number | undefined } | { problem: string } {
  const info = ALERT_TYPES[type];
  const text = raw.trim().replace(/,/g, '');
  if (text === '') {
    return info.defaultThreshold === undefined
      ? { problem: `${info.label} alerts need a threshold.` }
      : { value: undefined };
  }
  const value = Number(text);
  if (!Number.isFinite(value)) return { problem: 'The threshold must be a number.' };
  if (value < info.min) return { problem: `The threshold must be at least ${info.min}.` };
  if (info.max !== undefined && value > info.max) {
    return { problem: `The threshold must be at most ${info.max}.` };
  }
  if (info.integer && !Number.isInteger(value)) return { problem: 'The threshold must be a whole number.' };
  return { value };
}

/** "3 of 5 tracked"; without a known cap, "3 tracked". */
export function capLabel(count: number, limit: number | undefined, noun: string): string {
  return limit === undefined
    ? `${formatInteger(count)} ${noun}`
    : `${formatInteger(count)} of ${formatInteger(limit)} ${noun}`;
}

export function planOf(
  plans: readonly PlanInfo[] | undefined,
  name: string | undefined,
): PlanInfo | undefined {
  return plans?.find((p) => p.name === name);
}

/** The cheapest plan that delivers webhooks ("Studio"), for the upgrade card. */
export function webhookPlan(plans: readonly PlanInfo[] | undefined): string {
  return plans?.find((p) => p.alert_delivery.includes('webhook'))?.name ?? 'Studio';
}

export function unreadCount(alerts: readonly Pick<Alert, 'viewed'>[] | undefined): number {
  return alerts?.filter((a) => !a.viewed).length ?? 0;
}

/** When a rule last did something: its last firing, else its creation. */
export function lastActivity(a: Pick<Alert, 'created_at' | 'last_fired_at'>): string {
  return a.last_fired_at ?? a.created_at;
}

/** The feed: unread first, then the latest firing (or creation) first. */
export function feedOrder<T extends Pick<Alert, 'viewed' | 'created_at' | 'last_fired_at' | 'id'>>(
  alerts: readonly T[],
): T[] {
  return [...alerts].sort(
    (a, b) =>
      Number(a.viewed) - Number(b.viewed) ||
      Date.parse(lastActivity(b)) - Date.parse(lastActivity(a)) ||
      b.id - a.id,
  );
}

/** The search hit that is the universe itself (a numeric query also matches place ids). */
export function pickUniverse(results: readonly GameResult[], universeId: number): GameResult | null {
  return results.find((r) => r.universe_id === universeId) ?? null;
}

/** Tracked games first, in the order tracked, then the other games rules watch; no repeats. */
export function universeIds(tracked: readonly number[], alerts: readonly Pick<Alert, 'game_id'>[]): number[] {
  return [...new Set([...tracked, ...alerts.map((a) => a.game_id)])];
}

/** Rules per game, for the tracked table. */
export function rulesPerGame(alerts: readonly Pick<Alert, 'game_id'>[]): Map<number, number> {
  const counts = new Map<number, number>();
  for (const a of alerts) counts.set(a.game_id, (counts.get(a.game_id) ?? 0) + 1);
  return counts;
}

export const DELIVERY_STATUS: Record<Delivery['status'], { label: string; tone: string }> = {
  pending: { label: 'Pending', tone: 'warn' },
  delivered: { label: 'Delivered', tone: 'good' },
  failed: { label: 'Failed', tone: 'bad' },
  gave_up: { label: 'Gave up', tone: 'bad' },
};

/** Whether the log should be polled: something is still on its way. */
export function hasPending(deliveries: readonly Pick<Delivery, 'status'>[] | undefined): boolean {
  return deliveries?.some((d) => d.status === 'pending') ?? false;
}

/** What a log entry delivered: "Test" or "Alert #12 · firing #40". */
export function deliverySubject(d: Pick<Delivery, 'test' | 'alert_id' | 'firing_id'>): string {
  if (d.test) return 'Test';
  return `Alert #${d.alert_id} · firing #${d.firing_id}`;
}

/** A webhook signing secret: "whsec_" and 32 random bytes in hex (the API takes 16..256 characters). */
export function generateSecret(
  random: (bytes: Uint8Array) => Uint8Array = (b) => crypto.getRandomValues(b),
): string {
  const bytes = random(new Uint8Array(32));
  return `whsec_${Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('')}`;
}

export const SECTIONS = ['games', 'rules', 'feed', 'webhooks'] as const;
export type Section = (typeof SECTIONS)[number];

/** The section a `?tab=` names, the tracked games otherwise. */
export function sectionOf(tab: string | null): Section {
  return (SECTIONS as readonly string[]).includes(tab ?? '') ? (tab as Section) : 'games';
}
