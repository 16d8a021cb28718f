/**
 * Alert rules as pure functions: which thresholds each type takes, and how one evaluation moves a
 * rule (fire, re-arm, new reference, nothing). No I/O, so the hysteresis is tested without a
 * database; the engine only loads readings, calls `decide` and stores what it returns.
 */

export const ALERT_TYPES = ['ccu_spike', 'ccu_drop', 'trend_change', 'competitor', 'rank_change'] as const;
export type AlertType = (typeof ALERT_TYPES)[number];

interface ThresholdRule {
  /** Used when the body has none; absent: the type needs one (422 body.threshold). */
  default?: number;
  integer?: boolean;
  min: number;
  max?: number;
  meaning: string;
}

/** What `threshold` means per type; the OpenAPI description is written from this table. */
export const THRESHOLDS: Record<AlertType, ThresholdRule> = {
  ccu_spike: { min: 0, meaning: 'CCU level; fires when CCU is at or above it (required)' },
  ccu_drop: { min: 0, meaning: 'CCU level; fires when CCU is at or below it (required)' },
  trend_change: {
    default: 10,
    min: 0,
    max: 100,
    meaning: 'minimum |24 h trend score| (0..100, default 10) for a direction to count',
  },
  competitor: {
    min: 0,
    meaning: 'CCU level a same-genre game must reach (required); overtaking the game fires too',
  },
  rank_change: {
    default: 3,
    integer: true,
    min: 1,
    meaning: 'places (integer ≥ 1, default 3) the genre rank by CCU must move',
  },
};

/** The threshold a new rule gets, or the sentence saying why the given one is refused. */
export function resolveThreshold(type: AlertType, given: number | undefined): number | { problem: string } {
  const rule = THRESHOLDS[type];
  if (given === undefined) {
    return rule.default ?? { problem: `body.threshold is required for ${type} alerts` };
  }
  if (!Number.isFinite(given) || given < rule.min) {
    return { problem: `body.threshold must be at least ${rule.min} for ${type} alerts` };
  }
  if (rule.max !== undefined && given > rule.max) {
    return { problem: `body.threshold must be at most ${rule.max} for ${type} alerts` };
  }
  if (rule.integer && !Number.isInteger(given)) {
    return { problem: `body.threshold must be a whole number of places for ${type} alerts` };
  }
  return given;
}

export type Direction = 'up' | 'down';

/** What a change rule compares with; null until its first evaluation. */
export interface RuleState {
  direction?: Direction;
  rank?: number;
  /** Same-genre games already past the line (sorted universe ids). */
  ahead?: number[];
}

export interface RuleView {
  type: AlertType;
  threshold: number;
  armed: boolean;
  state: RuleState | null;
}

export interface Reading {
  universeId: number;
  name: string;
  genre: string;
  /** null: never read. */
  ccu: number | null;
}

export interface Observation {
  game: Reading;
  /** The 24 h trend score (DECISIONS §4); null without both windows. */
  trendScore: number | null;
  /** 1-based rank by CCU within the genre; null when the game has no reading. */
  rank: number | null;
  /** The other games of the genre that have a reading, busiest first. */
  rivals: readonly Reading[];
}

export interface Competitor {
  universeId: number;
  name: string;
  ccu: number;
  reason: 'overtook' | 'threshold';
}

export type FireEvent =
  | { type: 'ccu_spike' | 'ccu_drop'; ccu: number; threshold: number }
  | { type: 'trend_change'; direction: Direction; previous: Direction; trendScore: number; threshold: number }
  | { type: 'competitor'; ccu: number; threshold: number; competitors: Competitor[] }
  | { type: 'rank_change'; from: number; to: number; threshold: number };

export interface Decision {
  /** Whether armed/state differ from what was read (nothing to write otherwise). */
  changed: boolean;
  armed: boolean;
  state: RuleState | null;
  fire: FireEvent | null;
}

const unchanged = (rule: RuleView): Decision => ({
  changed: false,
  armed: rule.armed,
  state: rule.state,
  fire: null,
});

/** One evaluation of a rule against the latest readings. */
export function decide(rule: RuleView, obs: Observation): Decision {
  switch (rule.type) {
    case 'ccu_spike':
    case 'ccu_drop':
      return decideLevel(rule, obs);
    case 'trend_change':
      return decideTrend(rule, obs);
    case 'rank_change':
      return decideRank(rule, obs);
    case 'competitor':
      return decideCompetitor(rule, obs);
  }
}

/**
 * Level rules fire when the condition holds while armed, then stay quiet until it clears (which
 * re-arms them): once per crossing, never on every evaluation.
 */
function decideLevel(rule: RuleView, obs: Observation): Decision {
  const ccu = obs.game.ccu;
  if (ccu === null) return unchanged(rule);
  const holds = rule.type === 'ccu_spike' ? ccu >= rule.threshold : ccu <= rule.threshold;
  if (rule.armed && holds) {
    const type = rule.type as 'ccu_spike' | 'ccu_drop';
    return { changed: true, armed: false, state: rule.state, fire: { type, ccu, threshold: rule.threshold } };
  }
  if (!rule.armed && !holds) return { changed: true, armed: true, state: rule.state, fire: null };
  return unchanged(rule);
}

/** A direction counts only beyond ±threshold; inside that band the last direction stands. */
export function trendDirection(score: number | null, minimum: number): Direction | null {
  if (score === null || score === 0 || Math.abs(score) < minimum) return null;
  return score > 0 ? 'up' : 'down';
}

/** The first direction seen is the reference; a later opposite one fires and becomes it. */
function decideTrend(rule: RuleView, obs: Observation): Decision {
  const direction = trendDirection(obs.trendScore, rule.threshold);
  if (direction === null) return unchanged(rule);
  const previous = rule.state?.direction;
  if (previous === direction) return unchanged(rule);
  const state = { direction };
  if (previous === undefined) return { changed: true, armed: rule.armed, state, fire: null };
  const fire: FireEvent = {
    type: 'trend_change',
    direction,
    previous,
    trendScore: obs.trendScore!,
    threshold: rule.threshold,
  };
  return { changed: true, armed: rule.armed, state, fire };
}

/** The rank at the first evaluation (then at each firing) is the reference a move is measured from. */
function decideRank(rule: RuleView, obs: Observation): Decision {
  if (obs.rank === null) return unchanged(rule);
  const from = rule.state?.rank;
  if (from === obs.rank) return unchanged(rule);
  const state = { rank: obs.rank };
  if (from === undefined) return { changed: true, armed: rule.armed, state, fire: null };
  if (Math.abs(obs.rank - from) < rule.threshold) return unchanged(rule);
  const fire: FireEvent = { type: 'rank_change', from, to: obs.rank, threshold: rule.threshold };
  return { changed: true, armed: rule.armed, state, fire };
}

/** Same-genre games past the line: busier than the game, or at/above the threshold CCU. */
export function competitorsAhead(game: Reading, rivals: readonly Reading[], threshold: number): Competitor[] {
  const own = game.ccu ?? 0;
  const ahead: Competitor[] = [];
  for (const r of rivals) {
    if (r.universeId === game.universeId || r.ccu === null) continue;
    if (r.ccu > own) ahead.push({ universeId: r.universeId, name: r.name, ccu: r.ccu, reason: 'overtook' });
    else if (r.ccu >= threshold) {
      ahead.push({ universeId: r.universeId, name: r.name, ccu: r.ccu, reason: 'threshold' });
    }
  }
  return ahead;
}

/**
 * The games already past the line at the first evaluation are the baseline (no firing for them);
 * later, each game that crosses fires once, and again only after it fell back behind the line.
 */
function decideCompetitor(rule: RuleView, obs: Observation): Decision {
  if (obs.game.ccu === null) return unchanged(rule);
  const ahead = competitorsAhead(obs.game, obs.rivals, rule.threshold);
  const ids = ahead.map((c) => c.universeId).sort((a, b) => a - b);
  const before = rule.state?.ahead;
  if (before !== undefined && sameIds(before, ids)) return unchanged(rule);
  const state = { ahead: ids };
  if (before === undefined) return { changed: true, armed: rule.armed, state, fire: null };
  const known = new Set(before);
  const newcomers = ahead.filter((c) => !known.has(c.universeId));
  if (newcomers.length === 0) return { changed: true, armed: rule.armed, state, fire: null };
  const fire: FireEvent = {
    type: 'competitor',
    ccu: obs.game.ccu,
    threshold: rule.threshold,
    competitors: newcomers,
  };
  return { changed: true, armed: rule.armed, state, fire };
}

function sameIds(a: readonly number[], b: readonly number[]): boolean {
  return a.length === b.length && a.every((v, i) => v === b[i]);
}
