/**
 * Working days for deadlines: not a Saturday, not a Sunday, not a public holiday. A deadline that
 * lands on a non-working day runs to the next working day (skatteforvaltningsloven § 5-5 (2) with
 * domstolloven §§ 148–149; skattebetalingsloven § 10-2), through chains of such days.
 */
import { addDays, weekday, type LocalDate } from '../../lib/local-date.ts'
import { holidayOn } from './holidays.ts'

export type NonWorkingReason =
  | { kind: 'saturday'; date: LocalDate }
  | { kind: 'sunday'; date: LocalDate }
  | { kind: 'public_holiday'; date: LocalDate; name_nb: string; name_en: string }

/** Why a date is not a working day, or null when it is one. */
export function nonWorkingReason(date: LocalDate): NonWorkingReason | null {
  const holiday = holidayOn(date)
  if (holiday) return { kind: 'public_holiday', date, name_nb: holiday.name_nb, name_en: holiday.name_en }
  const wd = weekday(date)
  if (wd === 6) return { kind: 'saturday', date }
  if (wd === 0) return { kind: 'sunday', date }
  return null
}

export function isBusinessDay(date: LocalDate): boolean {
  return nonWorkingReason(date) === null
}

export interface Shift {
  /** the first working day on or after the date */
  date: LocalDate
  /** the non-working days passed over, in order; empty when the date was a working day */
  skipped: NonWorkingReason[]
}

export function nextBusinessDay(date: LocalDate): Shift {
  const skipped: NonWorkingReason[] = []
  let d = date
  for (let reason = nonWorkingReason(d); reason; reason = nonWorkingReason(d)) {
    skipped.push(reason)
    d = addDays(d, 1)
  }
  return { date: d, skipped }
}
