/** Seeded randomness for tests and benchmarks: the same seed gives the same data on every run. */

/** A small deterministic PRNG (mulberry32). */
export function rng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/**
 * The seed of a randomised test run: the integer in the environment variable `name` (to replay a
 * failure), else a fresh one. Tests print it when they fail, so any failure can be replayed.
 */
export function seedFromEnv(name: string): number {
  const raw = process.env[name]?.trim();
  if (!raw) return (Math.random() * 2 ** 32) | 0;
  const seed = Number(raw);
  if (!Number.isSafeInteger(seed)) throw new Error(`${name} must be an integer (got "${raw}")`);
  return seed;
}
