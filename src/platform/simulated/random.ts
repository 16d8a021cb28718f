/**
 * Deterministic randomness: every random quantity of the simulated market is a hash of
 * (seed, game, purpose, …), so any value at any moment can be recomputed exactly, in any order.
 */

function mix(h: number, p: number): number {
  let k = Math.imul((p | 0) ^ Math.floor(p / 4294967296), 0xcc9e2d51);
  k = (k << 15) | (k >>> 17);
  h ^= Math.imul(k, 0x1b873593);
  h = (h << 13) | (h >>> 19);
  return (Math.imul(h, 5) + 0xe6546b64) | 0;
}

function finish(h: number): number {
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return h >>> 0;
}

/** hash() of exactly four integers without allocating (the hot path of the noise). */
export function hash4(a: number, b: number, c: number, d: number): number {
  return finish(mix(mix(mix(mix(0x9e3779b9, a), b), c), d));
}

/** A 32-bit avalanche hash of integers (murmur3 finaliser over a running mix). */
export function hash(...parts: number[]): number {
  let h = 0x9e3779b9;
  for (const p of parts) h = mix(h, p);
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return h >>> 0;
}

/** Uniform in [0, 1). */
export function uniform(...parts: number[]): number {
  return hash(...parts) / 4294967296;
}

/** Standard normal (Box–Muller on two independent hashes). */
export function normal(...parts: number[]): number {
  const u = Math.max(uniform(...parts, 1), 1e-12);
  const v = uniform(...parts, 2);
  return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * v);
}

/** Picks an index with probability proportional to `weights`. */
export function weightedIndex(weights: readonly number[], u: number): number {
  const total = weights.reduce((a, b) => a + b, 0);
  let x = u * total;
  for (let i = 0; i < weights.length; i++) {
    x -= weights[i]!;
    if (x < 0) return i;
  }
  return weights.length - 1;
}

export function pick<T>(items: readonly T[], u: number): T {
  return items[Math.min(items.length - 1, Math.floor(u * items.length))]!;
}

/**
 * Smooth noise: standard-normal values at integer knots of `x`, joined by a smoothstep, so nearby
 * moments are correlated (the correlation length is one knot). Stationary with variance ≈ 0.8.
 */
function knot(seed: number, stream: number, i: number): number {
  const u = Math.max(hash4(seed, stream, i, 1) / 4294967296, 1e-12);
  const v = hash4(seed, stream, i, 2) / 4294967296;
  return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * v);
}

export function smoothNoise(seed: number, stream: number, x: number): number {
  const i = Math.floor(x);
  const f = x - i;
  const s = f * f * (3 - 2 * f);
  const a = knot(seed, stream, i);
  const b = knot(seed, stream, i + 1);
  // Renormalise: the blend of two independent normals has variance s² + (1−s)².
  return (a * (1 - s) + b * s) / Math.sqrt((1 - s) * (1 - s) + s * s);
}
