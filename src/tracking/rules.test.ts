import { describe, expect, it } from 'vitest';
import {
  competitorsAhead,
  decide,
  type Observation,
  type Reading,
  type RuleView,
  resolveThreshold,
  trendDirection,
} from './rules.js';

const game = (universeId: number, ccu: number | null, name = `Game ${universeId}`): Reading => ({
  universeId,
  name,
  genre: 'simulation',
  ccu,
});
const obs = (o: Partial<Observation> & { ccu?: number | null } = {}): Observation => ({
  game: game(1, o.ccu === undefined ? 100 : o.ccu),
  trendScore: null,
  rank: null,
  rivals: [],
  ...o,
});
const rule = (r: Partial<RuleView> & Pick<RuleView, 'type' | 'threshold'>): RuleView => ({
  armed: true,
  state: null,
  ...r,
});

/** Runs a rule through a sequence of observations and lists what fired (null: nothing). */
function run(start: RuleView, observations: Observation[]) {
  let r = start;
  return observations.map((o) => {
    const d = decide(r, o);
    r = { ...r, armed: d.armed, state: d.state };
    return d.fire;
  });
}

describe('resolveThreshold', () => {
  it('requires a threshold for ccu_spike, ccu_drop and competitor', () => {
    for (const type of ['ccu_spike', 'ccu_drop', 'competitor'] as const) {
      expect(resolveThreshold(type, undefined)).toEqual({
        problem: `body.threshold is required for ${type} alerts`,
      });
    }
  });

  it('defaults trend_change to 10 and rank_change to 3 places', () => {
    expect(resolveThreshold('trend_change', undefined)).toBe(10);
    expect(resolveThreshold('rank_change', undefined)).toBe(3);
  });

  it('refuses a trend minimum above 100, a fractional or zero number of places, and negatives', () => {
    expect(resolveThreshold('trend_change', 101)).toEqual({
      problem: 'body.threshold must be at most 100 for trend_change alerts',
    });
    expect(resolveThreshold('rank_change', 2.5)).toEqual({
      problem: 'body.threshold must be a whole number of places for rank_change alerts',
    });
    expect(resolveThreshold('rank_change', 0)).toEqual({
      problem: 'body.threshold must be at least 1 for rank_change alerts',
    });
    expect(resolveThreshold('ccu_spike', -1)).toEqual({
      problem: 'body.threshold must be at least 0 for ccu_spike alerts',
    });
    expect(resolveThreshold('ccu_spike', 450_000)).toBe(450_000);
  });
});

describe('ccu_spike and ccu_drop', () => {
  it('fires a spike once per crossing and again only after CCU fell below the threshold', () => {
    const fired = run(
      rule({ type: 'ccu_spike', threshold: 500 }),
      [400, 500, 600, 700, 499, 450, 501, 900].map((ccu) => obs({ ccu })),
    );
    expect(fired).toEqual([
      null,
      { type: 'ccu_spike', ccu: 500, threshold: 500 },
      null,
      null,
      null,
      null,
      { type: 'ccu_spike', ccu: 501, threshold: 500 },
      null,
    ]);
  });

  it('fires a drop at or below the threshold, once per crossing', () => {
    const fired = run(
      rule({ type: 'ccu_drop', threshold: 100 }),
      [150, 100, 80, 101, 99].map((ccu) => obs({ ccu })),
    );
    expect(fired).toEqual([
      null,
      { type: 'ccu_drop', ccu: 100, threshold: 100 },
      null,
      null,
      { type: 'ccu_drop', ccu: 99, threshold: 100 },
    ]);
  });

  it('fires at once when the condition already holds at the first evaluation, and ignores missing readings', () => {
    const start = rule({ type: 'ccu_spike', threshold: 10 });
    expect(decide(start, obs({ ccu: null }))).toEqual({
      changed: false,
      armed: true,
      state: null,
      fire: null,
    });
    expect(run(start, [obs({ ccu: 20 }), obs({ ccu: null }), obs({ ccu: 30 })])).toEqual([
      { type: 'ccu_spike', ccu: 20, threshold: 10 },
      null,
      null,
    ]);
  });

  it('writes nothing while a rule stays where it is', () => {
    expect(decide(rule({ type: 'ccu_spike', threshold: 500 }), obs({ ccu: 10 })).changed).toBe(false);
    expect(decide(rule({ type: 'ccu_spike', threshold: 500, armed: false }), obs({ ccu: 600 })).changed).toBe(
      false,
    );
    expect(decide(rule({ type: 'ccu_spike', threshold: 500, armed: false }), obs({ ccu: 10 }))).toEqual({
      changed: true,
      armed: true,
      state: null,
      fire: null,
    });
  });
});

describe('trend_change', () => {
  it('counts a direction only beyond the minimum |trend score|', () => {
    expect(trendDirection(12, 10)).toBe('up');
    expect(trendDirection(-10, 10)).toBe('down');
    expect(trendDirection(9.99, 10)).toBeNull();
    expect(trendDirection(0, 0)).toBeNull();
    expect(trendDirection(null, 10)).toBeNull();
  });

  it('takes the first direction as the reference and fires on each flip beyond the band', () => {
    const fired = run(
      rule({ type: 'trend_change', threshold: 10 }),
      [null, 15, 30, -5, 8, -12, -40, 11].map((trendScore) => obs({ trendScore })),
    );
    expect(fired).toEqual([
      null,
      null,
      null,
      null,
      null,
      { type: 'trend_change', direction: 'down', previous: 'up', trendScore: -12, threshold: 10 },
      null,
      { type: 'trend_change', direction: 'up', previous: 'down', trendScore: 11, threshold: 10 },
    ]);
  });
});

describe('rank_change', () => {
  it('measures moves from the first rank seen, then from the rank at the last firing', () => {
    const fired = run(
      rule({ type: 'rank_change', threshold: 2 }),
      [5, 4, 6, 3, 4, 5, null, 1].map((rank) => obs({ rank })),
    );
    expect(fired).toEqual([
      null,
      null,
      null,
      { type: 'rank_change', from: 5, to: 3, threshold: 2 },
      null,
      { type: 'rank_change', from: 3, to: 5, threshold: 2 },
      null,
      { type: 'rank_change', from: 5, to: 1, threshold: 2 },
    ]);
  });
});

describe('competitor', () => {
  const me = (ccu: number) => game(1, ccu, 'Mine');
  const rivals = (...ccus: number[]) => ccus.map((c, i) => game(10 + i, c, `Rival ${i}`));

  it('lists the same-genre games busier than the game or at the threshold, in the given order', () => {
    expect(competitorsAhead(me(100), [...rivals(300, 150, 90, 40), me(100)], 90)).toEqual([
      { universeId: 10, name: 'Rival 0', ccu: 300, reason: 'overtook' },
      { universeId: 11, name: 'Rival 1', ccu: 150, reason: 'overtook' },
      { universeId: 12, name: 'Rival 2', ccu: 90, reason: 'threshold' },
    ]);
  });

  it('takes the games already ahead as the baseline and fires for each newcomer once', () => {
    const start = rule({ type: 'competitor', threshold: 1000 });
    const fired = run(start, [
      obs({ game: me(100), rivals: rivals(200, 50) }),
      obs({ game: me(100), rivals: rivals(200, 120) }),
      obs({ game: me(100), rivals: rivals(200, 130) }),
      obs({ game: me(100), rivals: rivals(200, 90) }),
      obs({ game: me(100), rivals: rivals(200, 101) }),
    ]);
    const overtook = (ccu: number) => ({
      type: 'competitor',
      ccu: 100,
      threshold: 1000,
      competitors: [{ universeId: 11, name: 'Rival 1', ccu, reason: 'overtook' }],
    });
    expect(fired).toEqual([null, overtook(120), null, null, overtook(101)]);
  });
});
