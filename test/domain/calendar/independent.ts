/**
 * Calendar arithmetic written independently of src, for checking it: Gauss's Easter (not the
 * Meeus form src uses) and plain UTC day arithmetic.
 */

export function iso(year: number, month: number, day: number): string {
  // Date.UTC normalises overflow (e.g. 22 + 30 March → April); read it back as YYYY-MM-DD.
  return new Date(Date.UTC(year, month - 1, day)).toISOString().slice(0, 10)
}

export function shift(date: string, days: number): string {
  const d = new Date(`${date}T00:00:00Z`)
  d.setUTCDate(d.getUTCDate() + days)
  return d.toISOString().slice(0, 10)
}

/** 0 = Sunday … 6 = Saturday, computed from UTC midnight (no local time zone involved). */
export function dow(date: string): number {
  return new Date(`${date}T00:00:00Z`).getUTCDay()
}

/**
 * Easter Sunday by Gauss's algorithm for the Gregorian calendar, with Lilius/Clavius's two
 * exceptions (26 April → 19 April; 25 April → 18 April in the rare case).
 */
export function gaussEaster(year: number): string {
  const a = year % 19
  const b = year % 4
  const c = year % 7
  const k = Math.floor(year / 100)
  const p = Math.floor((13 + 8 * k) / 25)
  const q = Math.floor(k / 4)
  const M = (15 - p + k - q) % 30
  const N = (4 + k - q) % 7
  const d = (19 * a + M) % 30
  const e = (2 * b + 4 * c + 6 * d + N) % 7
  if (d === 29 && e === 6) return iso(year, 4, 19)
  if (d === 28 && e === 6 && (11 * M + 11) % 30 < 19) return iso(year, 4, 18)
  return iso(year, 3, 22 + d + e)
}
