import { decide, gcraStep, type Kv, type RateDecision, type RateRule } from './kv.js';

interface Entry {
  value: string;
  expiresAt: number;
}

/** Process-local store: right for one process; use Redis when several must agree. */
export function memoryKv(now: () => number = Date.now): Kv {
  const map = new Map<string, Entry>();
  const live = (key: string): Entry | undefined => {
    const e = map.get(key);
    if (e && e.expiresAt <= now()) {
      map.delete(key);
      return undefined;
    }
    return e;
  };
  const sweep = setInterval(() => {
    const t = now();
    for (const [k, e] of map) if (e.expiresAt <= t) map.delete(k);
  }, 60_000);
  sweep.unref();
  return {
    kind: 'memory',
    async get(key) {
      return live(key)?.value ?? null;
    },
    // A cache (options.cache) is kept like any value: in one process, whoever changes its source
    // deletes it here.
    async set(key, value, ttlMs) {
      map.set(key, { value, expiresAt: now() + ttlMs });
    },
    async del(key) {
      map.delete(key);
    },
    async incr(key, ttlMs) {
      const e = live(key);
      const next = (e ? Number(e.value) : 0) + 1;
      map.set(key, { value: String(next), expiresAt: e?.expiresAt ?? now() + ttlMs });
      return next;
    },
    async rateLimit(key: string, rule: RateRule, nowMs: number): Promise<RateDecision> {
      const stored = live(key);
      const step = gcraStep(stored ? Number(stored.value) : null, nowMs, rule);
      // Expiry is kept on this store's clock; the bucket's own times are on the caller's.
      if (step.allowed)
        map.set(key, { value: String(step.tat), expiresAt: now() + Math.max(1, step.tat - nowMs) });
      return decide(step.allowed, step.tat, nowMs, rule);
    },
    async close() {
      clearInterval(sweep);
      map.clear();
    },
  };
}
