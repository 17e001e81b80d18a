/**
 * Calendar dates as `YYYY-MM-DD` strings. Arithmetic goes through UTC midnight so that no local
 * time zone or DST change can shift a day.
 */
export type LocalDate = string

export function ymd(year: number, month: number, day: number): LocalDate {
  return `${String(year).padStart(4, '0')}-${String(month).padStart(2, '0')}-${String(day).padStart(2, '0')}`
}

function toUtc(date: LocalDate): Date {
  return new Date(`${date}T00:00:00Z`)
}

function fromUtc(d: Date): LocalDate {
  return d.toISOString().slice(0, 10)
}

export function addDays(date: LocalDate, days: number): LocalDate {
  const d = toUtc(date)
  d.setUTCDate(d.getUTCDate() + days)
  return fromUtc(d)
}

/** Adds calendar months, clamping the day to the target month's length (31 Jan + 1 → 28/29 Feb). */
export function addMonths(date: LocalDate, months: number): LocalDate {
  const [y, m, d] = date.split('-').map(Number) as [number, number, number]
  const index = y * 12 + (m - 1) + months
  const ty = Math.floor(index / 12)
  const tm = (index % 12) + 1
  return ymd(ty, tm, Math.min(d, daysInMonth(ty, tm)))
}

export function daysInMonth(year: number, month: number): number {
  return new Date(Date.UTC(year, month, 0)).getUTCDate()
}

/** 0 = Sunday … 6 = Saturday */
export function weekday(date: LocalDate): number {
  return toUtc(date).getUTCDay()
}

export function yearOf(date: LocalDate): number {
  return Number(date.slice(0, 4))
}

/** `YYYY-MM-DD` naming a day that exists (no 30 February). */
export function isLocalDate(value: string): boolean {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(value)) return false
  const d = toUtc(value)
  return !Number.isNaN(d.getTime()) && fromUtc(d) === value
}
