/**
 * Breakout radar (spec/DECISIONS.md §4): which young or not-yet-famous games are taking off. Pure:
 * the caller loads every collected game's latest figures and passes `now`.
 */

import type { Static } from 'typebox';
import { median } from '../stats.js';
import { percentileRanks } from './genres.js';
import type { BreakoutGame as BreakoutGameSchema } from './market.schemas.js';

export interface BreakoutInput {
  universeId: number;
  placeId: number;
  name: string;
  creator: string;
  genre: string;
  ccu: number;
  visits: number;
  likes: number | null;
  dislikes: number | null;
  createdAt: Date | null;
  visitsGained24h: number | null;
  meanDailyVisitsGainedPrev7d: number | null;
}

export type BreakoutGame = Static<typeof BreakoutGameSchema>;

const NEW_GAME_MS = 180 * 86_400_000;

export const BREAKOUT_METHOD = [
  'Eligible games: created within the last 180 days, or outside the top 1% by CCU (a game is in the top',
  '1% when fewer than 1% of collected games have a strictly higher CCU). Every collected game, eligible',
  'or not, takes part in the normalisation.',
  'Visit momentum = (visits gained in the last 24 h + 1) / (mean daily visits gained over the previous 7',
  'days + 1); the +1 keeps a game with no visits last week finite and stops a handful of visits reading',
  'as a surge. A game without either figure (no history yet) gets the neutral momentum 1.',
  'Momentum is taken as its natural log, then winsorised at the 1st and 99th percentiles (nearest rank)',
  'across all games, before its z-score: growth is multiplicative with a heavy right tail, and without',
  'this one viral game would inflate the spread and mute everyone else’s momentum against engagement.',
  'Engagement = like ratio × ln(1 + CCU), like ratio = likes / (likes + dislikes); a game without votes',
  'takes the median like ratio of its genre’s voted games (of all voted games when its genre has none,',
  '0.5 when no game has votes), so no votes neither rewards nor punishes it.',
  'z = (x − mean) / population standard deviation across all collected games (0 when all are equal).',
  'score = mid-rank percentile of 0.6·z(momentum) + 0.4·z(engagement) across all collected games,',
  '(games lower + 0.5 × other games equal) / (games − 1) × 100, rounded to 1 decimal (50 for a lone',
  'game). The top 50 eligible games by score, then CCU, then place id.',
].join(' ');

export function breakoutRadar(games: readonly BreakoutInput[], now: Date, top = 50): BreakoutGame[] {
  if (games.length === 0 || top <= 0) return [];
  const momentum = winsorise(games.map(logMomentum));
  const likeRatio = likeRatios(games);
  const engagement = games.map((g, i) => likeRatio[i]! * Math.log1p(cleanCount(g.ccu)));
  const zm = zScores(momentum);
  const ze = zScores(engagement);
  const pct = percentileRanks(games.map((_, i) => 0.6 * zm[i]! + 0.4 * ze[i]!));
  const isTop = topOnePercent(games);
  return games
    .map((g, i) => ({ g, pct: pct[i]!, eligible: isNew(g, now) || !isTop[i] }))
    .filter((x) => x.eligible)
    .sort((a, b) => b.pct - a.pct || cleanCount(b.g.ccu) - cleanCount(a.g.ccu) || a.g.placeId - b.g.placeId)
    .slice(0, top)
    .map(({ g, pct: p }) => ({
      place_id: g.placeId,
      universe_id: g.universeId,
      name: g.name,
      creator: g.creator,
      genre: g.genre,
      ccu: Math.round(cleanCount(g.ccu)),
      score: Math.round(p * 1000) / 10,
      visits: Math.round(cleanCount(g.visits)),
      likes: Math.round(cleanCount(g.likes ?? 0)),
    }));
}

/** Counts from upstream are never negative or NaN for scoring purposes. */
const cleanCount = (x: number): number => (Number.isFinite(x) && x > 0 ? x : 0);

const known = (x: number | null): x is number => x !== null && Number.isFinite(x);

function logMomentum(g: BreakoutInput): number {
  if (!known(g.visitsGained24h) || !known(g.meanDailyVisitsGainedPrev7d)) return 0; // ln(1): neutral
  return Math.log((cleanCount(g.visitsGained24h) + 1) / (cleanCount(g.meanDailyVisitsGainedPrev7d) + 1));
}

function isNew(g: BreakoutInput, now: Date): boolean {
  const t = g.createdAt?.getTime();
  return t !== undefined && Number.isFinite(t) && now.getTime() - t <= NEW_GAME_MS;
}

/** Per game: whether fewer than 1% of all games have a strictly higher CCU (ties share the rank). */
function topOnePercent(games: readonly BreakoutInput[]): boolean[] {
  const sorted = games.map((g) => cleanCount(g.ccu)).sort((a, b) => b - a);
  const higherThan = new Map<number, number>(); // CCU → games with a strictly higher CCU
  for (const [i, ccu] of sorted.entries()) if (!higherThan.has(ccu)) higherThan.set(ccu, i);
  const cut = games.length / 100;
  return games.map((g) => higherThan.get(cleanCount(g.ccu))! < cut);
}

/** Clamp to the 1st and 99th percentiles (nearest rank); a no-op below 100 values. */
function winsorise(values: readonly number[]): number[] {
  const n = values.length;
  const s = [...values].sort((a, b) => a - b);
  const lo = s[Math.ceil(n / 100) - 1]!;
  const hi = s[Math.ceil((99 * n) / 100) - 1]!;
  return values.map((v) => Math.min(hi, Math.max(lo, v)));
}

export function zScores(values: readonly number[]): number[] {
  const n = values.length;
  const mean = values.reduce((s, v) => s + v, 0) / n;
  const sd = Math.sqrt(values.reduce((s, v) => s + (v - mean) ** 2, 0) / n);
  // Equal values (or float noise around them) carry no signal: everyone is average.
  if (!(sd > 1e-12 * Math.max(1, Math.abs(mean)))) return values.map(() => 0);
  return values.map((v) => (v - mean) / sd);
}

/** Like ratio per game; a game without votes takes its genre's median, else the platform's, else 0.5. */
function likeRatios(games: readonly BreakoutInput[]): number[] {
  const own = games.map(ownLikeRatio);
  const byGenre = new Map<string, number[]>();
  for (const [i, g] of games.entries()) {
    const r = own[i];
    if (r === null || r === undefined) continue;
    const list = byGenre.get(g.genre);
    if (list) list.push(r);
    else byGenre.set(g.genre, [r]);
  }
  const voted = own.filter((r): r is number => r !== null);
  const platform = voted.length > 0 ? median(voted) : 0.5;
  const genreMedian = new Map([...byGenre].map(([k, v]) => [k, median(v)]));
  return games.map((g, i) => own[i] ?? genreMedian.get(g.genre) ?? platform);
}

function ownLikeRatio(g: BreakoutInput): number | null {
  if (!known(g.likes) || !known(g.dislikes)) return null;
  const likes = cleanCount(g.likes);
  const votes = likes + cleanCount(g.dislikes);
  return votes > 0 ? likes / votes : null;
}
