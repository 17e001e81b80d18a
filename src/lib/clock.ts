/** All domain code reads time through a Clock so tests and the sandbox can pin it. */
export interface Clock {
  now(): Date
}

export const systemClock: Clock = { now: () => new Date() }

/** A clock standing still at `iso` until moved; for tests. */
export function fixedClock(iso: string): Clock & { set(iso: string): void; advance(ms: number): void } {
  let t = new Date(iso).getTime()
  if (Number.isNaN(t)) throw new Error(`fixedClock: not a date: ${iso}`)
  return {
    now: () => new Date(t),
    set: (next) => {
      t = new Date(next).getTime()
    },
    advance: (ms) => {
      t += ms
    },
  }
}
