/**
 * A small per-process cache of computed answers: each key's value is computed once and shared by
 * the requests that ask while it is fresh (a failed computation is forgotten at once, so the next
 * request tries again). Time comes from the caller (the injected clock), so tests control expiry.
 */
export class TtlCache<V> {
  private readonly entries = new Map<string, { at: number; value: Promise<V> }>();

  /** Entries live `ttlMs`; past `maxKeys` keys the cache starts over (a bound, not an LRU). */
  constructor(
    readonly ttlMs: number,
    private readonly maxKeys = 500,
  ) {}

  get(key: string, nowMs: number, compute: () => Promise<V>): Promise<V> {
    const hit = this.entries.get(key);
    if (hit && nowMs - hit.at < this.ttlMs && nowMs >= hit.at) return hit.value;
    if (this.entries.size >= this.maxKeys) this.entries.clear();
    const value = compute();
    this.entries.set(key, { at: nowMs, value });
    value.catch(() => {
      if (this.entries.get(key)?.value === value) this.entries.delete(key);
    });
    return value;
  }

  clear(): void {
    this.entries.clear();
  }
}
