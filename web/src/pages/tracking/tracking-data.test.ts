import { describe, expect, it } from 'vitest';
import {
  ALERT_TYPE_KEYS,
  capLabel,
  deliverySubject,
  feedOrder,
  formatThreshold,
  type GameResult,
  generateSecret,
  hasPending,
  lastActivity,
  type PlanInfo,
  parseThreshold,
  pickUniverse,
  planOf,
  rulesPerGame,
  sectionOf,
  universeIds,
  unreadCount,
  webhookPlan,
} from './tracking-data';

const game = (universe_id: number, place_id: number, name: string): GameResult => ({
  universe_id,
  place_id,
  name,
  creator: 'c',
  genre: 'rpg',
  ccu: 10,
});

const plan = (name: PlanInfo['name'], delivery: PlanInfo['alert_delivery'], tracked: number): PlanInfo => ({
  name,
  summary: '',
  trending_max: 20,
  genre_opportunities: 'free',
  ml_prediction: 'score',
  forecast: null,
  tracked_games: tracked,
  alerts: tracked,
  alert_delivery: delivery,
  dev_lens: false,
  monthly_sdk_events: 0,
  sdk_history_days: 7,
  read_rate_per_min: 60,
  team_seats: 0,
});

describe('alert types', () => {
  it('lists the five types in the API’s order', () => {
    expect(ALERT_TYPE_KEYS).toEqual(['ccu_spike', 'ccu_drop', 'trend_change', 'competitor', 'rank_change']);
  });

  it('formats each threshold in its unit', () => {
    expect(formatThreshold('ccu_spike', 450_000)).toBe('450,000 CCU');
    expect(formatThreshold('competitor', 1_000_000)).toBe('1,000,000 CCU');
    expect(formatThreshold('ccu_drop', 2.5)).toBe('2.5 CCU');
    expect(formatThreshold('trend_change', 12.25)).toBe('±12.25');
    expect(formatThreshold('trend_change', 10)).toBe('±10');
    expect(formatThreshold('rank_change', 1)).toBe('1 place');
    expect(formatThreshold('rank_change', 3)).toBe('3 places');
  });

  it('leaves an empty threshold to the server’s default where the type has one, and requires it elsewhere', () => {
    expect(parseThreshold('trend_change', ' ')).toEqual({ value: undefined });
    expect(parseThreshold('rank_change', '')).toEqual({ value: undefined });
    expect(parseThreshold('ccu_spike', '')).toEqual({ problem: 'CCU spike alerts need a threshold.' });
    expect(parseThreshold('competitor', '')).toEqual({ problem: 'Competitor alerts need a threshold.' });
  });

  it('checks a threshold as the server does: number, minimum, maximum, whole places', () => {
    expect(parseThreshold('ccu_spike', '450,000')).toEqual({ value: 450_000 });
    expect(parseThreshold('ccu_drop', '12.5')).toEqual({ value: 12.5 });
    expect(parseThreshold('ccu_drop', 'lots')).toEqual({ problem: 'The threshold must be a number.' });
    expect(parseThreshold('ccu_spike', '-1')).toEqual({ problem: 'The threshold must be at least 0.' });
    expect(parseThreshold('trend_change', '150')).toEqual({ problem: 'The threshold must be at most 100.' });
    expect(parseThreshold('trend_change', '100')).toEqual({ value: 100 });
    expect(parseThreshold('rank_change', '0')).toEqual({ problem: 'The threshold must be at least 1.' });
    expect(parseThreshold('rank_change', '2.5')).toEqual({
      problem: 'The threshold must be a whole number.',
    });
  });
});

describe('plans and caps', () => {
  const plans = [
    plan('Explorer', ['in_app'], 5),
    plan('Builder', ['in_app', 'email'], 25),
    plan('Studio', ['in_app', 'email', 'webhook'], 100),
  ];

  it('states the cap as “3 of 5 tracked”, or the count alone when the cap is unknown', () => {
    expect(capLabel(3, 5, 'tracked')).toBe('3 of 5 tracked');
    expect(capLabel(1200, 5000, 'alert rules')).toBe('1,200 of 5,000 alert rules');
    expect(capLabel(3, undefined, 'tracked')).toBe('3 tracked');
  });

  it('finds the caller’s plan and the cheapest plan with webhooks', () => {
    expect(planOf(plans, 'Builder')?.tracked_games).toBe(25);
    expect(planOf(plans, 'Enterprise')).toBeUndefined();
    expect(planOf(undefined, 'Builder')).toBeUndefined();
    expect(webhookPlan(plans)).toBe('Studio');
    expect(webhookPlan(plans.slice(0, 2))).toBe('Studio');
  });
});

describe('the feed', () => {
  const a = (id: number, viewed: boolean, created_at: string, last_fired_at: string | null = null) => ({
    id,
    viewed,
    created_at,
    last_fired_at,
  });

  it('counts unread alerts', () => {
    expect(unreadCount([a(1, false, 'x'), a(2, true, 'x'), a(3, false, 'x')])).toBe(2);
    expect(unreadCount(undefined)).toBe(0);
  });

  it('puts unread first, then the latest firing (or creation, before any) first', () => {
    const ordered = feedOrder([
      a(1, true, '2026-11-20T10:00:00Z'),
      a(2, false, '2026-11-19T10:00:00Z', '2026-11-22T08:00:00Z'),
      a(3, true, '2026-11-21T10:00:00Z'),
      a(4, false, '2026-11-21T10:00:00Z'),
      a(5, false, '2026-11-21T10:00:00Z'),
      a(6, true, '2026-11-18T10:00:00Z', '2026-11-23T10:00:00Z'),
    ]);
    expect(ordered.map((x) => x.id)).toEqual([2, 5, 4, 6, 3, 1]);
    expect(lastActivity(ordered[0]!)).toBe('2026-11-22T08:00:00Z');
    expect(lastActivity(ordered[1]!)).toBe('2026-11-21T10:00:00Z');
  });
});

describe('games by universe id', () => {
  it('picks the hit that is the universe, not a game whose place id matches', () => {
    const hits = [game(7, 42, 'Place forty-two'), game(42, 900, 'Universe forty-two')];
    expect(pickUniverse(hits, 42)?.name).toBe('Universe forty-two');
    expect(pickUniverse(hits, 5)).toBeNull();
  });

  it('lists tracked games first, then other games rules watch, once each', () => {
    expect(universeIds([3, 1], [{ game_id: 1 }, { game_id: 9 }, { game_id: 9 }])).toEqual([3, 1, 9]);
  });

  it('counts rules per game', () => {
    expect([...rulesPerGame([{ game_id: 1 }, { game_id: 2 }, { game_id: 1 }])]).toEqual([
      [1, 2],
      [2, 1],
    ]);
  });
});

describe('webhooks', () => {
  it('names a delivery by what it carried', () => {
    expect(deliverySubject({ test: true, alert_id: null, firing_id: null })).toBe('Test');
    expect(deliverySubject({ test: false, alert_id: 12, firing_id: 40 })).toBe('Alert #12 · firing #40');
  });

  it('polls only while a delivery is pending', () => {
    expect(hasPending([{ status: 'delivered' }, { status: 'pending' }])).toBe(true);
    expect(hasPending([{ status: 'failed' }, { status: 'gave_up' }])).toBe(false);
    expect(hasPending(undefined)).toBe(false);
  });

  it('generates a 70-character secret the API accepts, from 32 random bytes', () => {
    const fixed = generateSecret((b) => b.fill(0xab));
    expect(fixed).toBe(`whsec_${'ab'.repeat(32)}`);
    const random = generateSecret();
    expect(random).toMatch(/^whsec_[0-9a-f]{64}$/);
    expect(random).not.toBe(generateSecret());
  });
});

describe('sections', () => {
  it('reads the section from ?tab=, tracked games by default', () => {
    expect(sectionOf('feed')).toBe('feed');
    expect(sectionOf('webhooks')).toBe('webhooks');
    expect(sectionOf(null)).toBe('games');
    expect(sectionOf('admin')).toBe('games');
  });
});
