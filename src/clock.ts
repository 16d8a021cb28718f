/** Time is injected everywhere logic needs it, so tests and the simulator can move it. */
export interface Clock {
  now(): Date;
}

export const systemClock: Clock = { now: () => new Date() };

/** A clock tests set by hand. */
export function fixedClock(
  start: Date | string,
): Clock & { set(t: Date | string): void; advance(ms: number): void } {
  let current = new Date(start);
  return {
    now: () => new Date(current),
    set(t) {
      current = new Date(t);
    },
    advance(ms) {
      current = new Date(current.getTime() + ms);
    },
  };
}
