/**
 * The simulated catalogue: the fixed traits of every game (identity, genre, launch, popularity,
 * lifecycle, breakout, update rhythm, passes), each a hash of (seed, game index).
 */
import { cloneName, creatorName, gameBaseName, withTag } from './names.js';
import { hash, normal, pick, uniform, weightedIndex } from './random.js';
import type { MarketShape } from './shape.js';

const DAY_MS = 86_400_000;

/** genre_l1 keys with the share of games each has in the simulated catalogue. */
export const GENRES: readonly { key: string; name: string; share: number; pull: number }[] = [
  { key: 'action', name: 'Action', share: 0.1, pull: 1.2 },
  { key: 'adventure', name: 'Adventure', share: 0.06, pull: 0.9 },
  { key: 'education', name: 'Education', share: 0.01, pull: 0.4 },
  { key: 'entertainment', name: 'Entertainment', share: 0.02, pull: 0.6 },
  { key: 'obby_platformer', name: 'Obby & platformer', share: 0.14, pull: 0.8 },
  { key: 'party_casual', name: 'Party & casual', share: 0.05, pull: 0.9 },
  { key: 'puzzle', name: 'Puzzle', share: 0.03, pull: 0.6 },
  { key: 'rpg', name: 'RPG', share: 0.05, pull: 1.3 },
  { key: 'roleplay_avatar_sim', name: 'Roleplay & avatar sim', share: 0.1, pull: 1.4 },
  { key: 'shooter', name: 'Shooter', share: 0.07, pull: 1.1 },
  { key: 'shopping', name: 'Shopping', share: 0.01, pull: 0.5 },
  { key: 'simulation', name: 'Simulation', share: 0.18, pull: 1.1 },
  { key: 'social', name: 'Social', share: 0.02, pull: 0.7 },
  { key: 'sports_racing', name: 'Sports & racing', share: 0.04, pull: 0.8 },
  { key: 'strategy', name: 'Strategy', share: 0.04, pull: 1.0 },
  { key: 'survival', name: 'Survival', share: 0.06, pull: 1.2 },
  { key: 'utility_other', name: 'Utility & other', share: 0.02, pull: 0.3 },
];

export interface GameSpec {
  index: number;
  universeId: number;
  placeId: number;
  name: string;
  description: string;
  creator: { id: number; name: string; type: 'User' | 'Group' };
  genre: string;
  launchAt: number;
  /** CCU at the lifecycle peak, before cycles and noise. */
  base: number;
  rampDays: number;
  /** Decline time constant after the peak, and the floor it declines towards (share of base). */
  declineDays: number;
  floor: number;
  breakout: { at: number; factor: number; rampDays: number; fadeDays: number } | null;
  updateEveryDays: number;
  updatePhaseDays: number;
  updateSpike: number;
  dailyAmplitude: number;
  hourShift: number;
  visitsPerCcuDay: number;
  visitsBeforeTracking: number;
  likeRatio: number;
  votesPerVisit: number;
  favoritesPerVisit: number;
  maxPlayers: number;
  passes: { id: number; name: string; price: number | null }[];
}

/** Std (hours) of each game's daily-cycle shift when a shape does not set hourShiftSd. */
export const HOUR_SHIFT_SD = 1.5;

const PASS_NAMES = [
  'VIP',
  '2x Coins',
  'Speed Coil',
  'Extra Storage',
  'Radio',
  'Auto Farm',
  'Lucky Boost',
  'Pet Slot',
];
const PASS_PRICES = [25, 49, 75, 99, 149, 199, 299, 399, 499, 799, 999, 1499];

/** A name not yet used in the genre (after a bounded number of draws, a repeat is accepted). */
function uniqueName(genre: string, seed: number, index: number, taken: Set<string>): string {
  let name = gameBaseName(genre, seed, index);
  for (let attempt = 1; taken.has(`${genre}|${name.toLowerCase()}`) && attempt < 40; attempt++) {
    name = gameBaseName(genre, seed, index, attempt);
  }
  taken.add(`${genre}|${name.toLowerCase()}`);
  return name;
}

/** Broken power law over the popularity rank (1 = most popular). */
export function baseCcu(rank: number, shape: MarketShape): number {
  if (rank <= shape.tailBreakRank) return shape.topCcu * rank ** -shape.headAlpha;
  const atBreak = shape.topCcu * shape.tailBreakRank ** -shape.headAlpha;
  return atBreak * (rank / shape.tailBreakRank) ** -shape.tailAlpha;
}

export function buildCatalogue(seed: number, shape: MarketShape): GameSpec[] {
  const n = shape.games;
  // A random permutation gives each game its popularity rank.
  const order = Array.from({ length: n }, (_, i) => i).sort((a, b) => hash(seed, a, 1) - hash(seed, b, 1));
  const rankOf = new Array<number>(n);
  order.forEach((gameIndex, r) => {
    rankOf[gameIndex] = r + 1;
  });
  const creators = Math.max(50, Math.round(n * 0.3));
  const games: GameSpec[] = [];
  const taken = new Set<string>();
  for (let i = 0; i < n; i++) {
    const g =
      GENRES[
        weightedIndex(
          GENRES.map((x) => x.share),
          uniform(seed, i, 2),
        )
      ]!;
    const creatorId = Math.floor(uniform(seed, i, 3) ** 1.6 * creators); // prolific studios own several games
    const isGroup = uniform(seed, creatorId, 4) < 0.6;
    const rank = rankOf[i]!;
    const late = uniform(seed, i, 5) < shape.lateLaunchShare;
    const launchAt = late
      ? shape.epoch - 365 * DAY_MS + uniform(seed, i, 6) * 3 * 365 * DAY_MS
      : shape.epoch - (60 + uniform(seed, i, 6) ** 0.7 * 9 * 365) * DAY_MS;
    const breakout =
      uniform(seed, i, 7) < shape.breakoutShare
        ? {
            at: launchAt + (10 + uniform(seed, i, 8) * 500) * DAY_MS,
            factor: 3 + uniform(seed, i, 9) * 15,
            rampDays: 2 + uniform(seed, i, 10) * 8,
            fadeDays: 30 + uniform(seed, i, 11) * 150,
          }
        : null;
    const passCount = Math.floor(uniform(seed, i, 12) ** 2 * 16);
    const passes = Array.from({ length: passCount }, (_, k) => ({
      id: 1_000_000 + i * 100 + k,
      name: pick(PASS_NAMES, uniform(seed, i, 13, k)),
      price: uniform(seed, i, 14, k) < 0.05 ? null : pick(PASS_PRICES, uniform(seed, i, 15, k) ** 1.5),
    }));
    const universeId = 3_000_000_000 + i * 1000 + (hash(seed, i, 16) % 1000);
    const placeId = 70_000_000_000 + i * 1000 + (hash(seed, i, 17) % 1000);
    const name = withTag(uniqueName(g.key, seed, i, taken), seed, i);
    games.push({
      index: i,
      universeId,
      placeId,
      name,
      description: `${name}: a ${g.name.toLowerCase()} experience. Join the community and play with friends!`,
      creator: {
        id: creatorId + 1000,
        name: creatorName(seed, creatorId, isGroup),
        type: isGroup ? 'Group' : 'User',
      },
      genre: g.key,
      launchAt,
      base: baseCcu(rank, shape) * g.pull * Math.exp(0.3 * normal(seed, i, 18)),
      rampDays: 3 + uniform(seed, i, 19) * 40,
      declineDays: 90 + uniform(seed, i, 20) * 1500,
      floor: 0.15 + uniform(seed, i, 21) * 0.6,
      breakout,
      updateEveryDays: 5 + Math.floor(uniform(seed, i, 22) * 40),
      updatePhaseDays: uniform(seed, i, 23) * 30,
      updateSpike: 0.1 + uniform(seed, i, 24) ** 2 * 1.2,
      dailyAmplitude:
        shape.dailyAmplitudeRange[0] +
        uniform(seed, i, 25) * (shape.dailyAmplitudeRange[1] - shape.dailyAmplitudeRange[0]),
      hourShift: normal(seed, i, 26) * (shape.hourShiftSd ?? HOUR_SHIFT_SD),
      visitsPerCcuDay: shape.visitsPerCcuDay * Math.exp(0.4 * normal(seed, i, 27)),
      visitsBeforeTracking: 0,
      likeRatio: Math.min(0.98, Math.max(0.35, shape.likeRatioMedian + 0.08 * normal(seed, i, 28))),
      votesPerVisit: shape.votesPerVisit * Math.exp(0.5 * normal(seed, i, 29)),
      favoritesPerVisit: shape.favoritesPerVisit * Math.exp(0.5 * normal(seed, i, 30)),
      maxPlayers: pick([6, 8, 10, 12, 16, 20, 24, 30, 40, 50], uniform(seed, i, 31)),
      passes,
    });
  }
  // Copycats: a few games take a popular game's name in the same genre (clone detection has work).
  const popular = games.filter((g) => rankOf[g.index]! <= 200);
  for (const g of games) {
    if (rankOf[g.index]! > 500 && uniform(seed, g.index, 40) < shape.cloneShare) {
      const original = pick(popular, uniform(seed, g.index, 41));
      g.genre = original.genre;
      g.name = cloneName(original.name, uniform(seed, g.index, 42));
      g.description = original.description;
    }
  }
  return games;
}
