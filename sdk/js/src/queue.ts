/** The bounded queue of events waiting to be sent: it drops the oldest when full and counts them. */

export interface Queued<T> {
  item: T;
  /** The item's size in the request body (bytes of its JSON). */
  bytes: number;
}

export class BoundedQueue<T> {
  private items: Queued<T>[] = [];
  /** Items dropped because the queue was full (oldest first). */
  dropped = 0;

  constructor(readonly capacity: number) {
    if (!Number.isInteger(capacity) || capacity < 1) throw new RangeError('capacity must be an integer >= 1');
  }

  get length(): number {
    return this.items.length;
  }

  /** Appends; returns the items dropped to make room (the oldest). */
  push(entry: Queued<T>): Queued<T>[] {
    this.items.push(entry);
    return this.trim();
  }

  /** Puts a batch back at the front (a retry later), then trims to capacity from the front. */
  unshift(entries: Queued<T>[]): Queued<T>[] {
    this.items.unshift(...entries);
    return this.trim();
  }

  /** Takes up to `maxItems` from the front whose sizes add up to at most `maxBytes` (always at least one). */
  take(maxItems: number, maxBytes: number): Queued<T>[] {
    let n = 0;
    let bytes = 0;
    while (n < this.items.length && n < maxItems) {
      const next = this.items[n]!.bytes;
      if (n > 0 && bytes + next > maxBytes) break;
      bytes += next;
      n += 1;
    }
    return this.items.splice(0, n);
  }

  /** Empties the queue, returning what it held. */
  clear(): Queued<T>[] {
    return this.items.splice(0);
  }

  private trim(): Queued<T>[] {
    const excess = this.items.length - this.capacity;
    if (excess <= 0) return [];
    this.dropped += excess;
    return this.items.splice(0, excess);
  }
}
