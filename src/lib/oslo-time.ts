/** Europe/Oslo, where every date a Norwegian reads lives. Offsets come from the platform's tz data. */
import type { LocalDate } from './local-date.ts'

const OSLO = 'Europe/Oslo'

const dateFormat = new Intl.DateTimeFormat('en-CA', {
  timeZone: OSLO,
  year: 'numeric',
  month: '2-digit',
  day: '2-digit',
})
const offsetFormat = new Intl.DateTimeFormat('en-US', { timeZone: OSLO, timeZoneName: 'longOffset' })

/** The Oslo calendar date at an instant. */
export function osloDate(instant: Date): LocalDate {
  return dateFormat.format(instant)
}

/** Oslo's UTC offset at an instant, as `+01:00` or `+02:00`. */
export function osloOffset(instant: Date): string {
  const name = offsetFormat.formatToParts(instant).find((p) => p.type === 'timeZoneName')?.value ?? 'GMT+01:00'
  const m = /GMT([+-]\d{2}:\d{2})/.exec(name)
  return m ? m[1]! : '+00:00'
}

/**
 * The last second of an Oslo day, e.g. `2026-04-07T23:59:59+02:00`. Summer time starts and ends at
 * 01:00 UTC, so the offset at noon UTC is the offset in force at the end of the day.
 */
export function endOfOsloDay(date: LocalDate): string {
  return `${date}T23:59:59${osloOffset(new Date(`${date}T12:00:00Z`))}`
}

/** An instant rendered as RFC 3339 with Oslo's offset and millisecond precision. */
export function osloTimestamp(instant: Date): string {
  const offset = osloOffset(instant)
  const sign = offset.startsWith('-') ? -1 : 1
  const [h, m] = offset.slice(1).split(':').map(Number) as [number, number]
  const local = new Date(instant.getTime() + sign * (h * 60 + m) * 60_000)
  return `${local.toISOString().slice(0, 23)}${offset}`
}
