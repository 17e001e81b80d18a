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

/** Statutory public holidays (helligdagsloven § 2; 1 and 17 May) of a date's year; Sundays aside. */
export function isPublicHoliday(date: string): boolean {
  const y = date.slice(0, 4)
  const e = gaussEaster(Number(y))
  return [
    `${y}-01-01`,
    shift(e, -3),
    shift(e, -2),
    e,
    shift(e, 1),
    `${y}-05-01`,
    `${y}-05-17`,
    shift(e, 39),
    shift(e, 49),
    shift(e, 50),
    `${y}-12-25`,
    `${y}-12-26`,
  ].includes(date)
}

export function isWorkingDay(date: string): boolean {
  const wd = dow(date)
  return wd !== 0 && wd !== 6 && !isPublicHoliday(date)
}

/** The first working day on or after the date. */
export function firstWorkingDayFrom(date: string): string {
  let d = date
  while (!isWorkingDay(d)) d = shift(d, 1)
  return d
}

/** The last Sunday of a month (1-based). */
export function lastSunday(year: number, month: number): string {
  const last = new Date(Date.UTC(year, month, 0))
  last.setUTCDate(last.getUTCDate() - last.getUTCDay())
  return last.toISOString().slice(0, 10)
}

/**
 * The end of an Oslo day as an instant with its offset: CEST (+02:00) from the last Sunday of
 * March (that day ends in summer time) up to the day before the last Sunday of October; CET
 * (+01:00) otherwise.
 */
export function osloEndOfDay(date: string): string {
  const y = Number(date.slice(0, 4))
  return `${date}T23:59:59${date >= lastSunday(y, 3) && date < lastSunday(y, 10) ? '+02:00' : '+01:00'}`
}
