/**
 * Norwegian public holidays (helligdagsloven § 2 and the 1947 act on 1 and 17 May): every Sunday,
 * plus the fixed and Easter-based days below. 24 and 31 December, Easter Saturday and Whit Saturday
 * are ordinary working days. Saturdays stop deadlines too (domstolloven § 149, skattebetalingsloven
 * § 10-2), but they are not holidays; business-days.ts combines the two.
 */
import { addDays, ymd, type LocalDate } from '../../lib/local-date.ts'

export interface Holiday {
  date: LocalDate
  name_nb: string
  name_en: string
}

/** Easter Sunday by the anonymous Gregorian algorithm (Meeus/Jones/Butcher). */
export function easterSunday(year: number): LocalDate {
  const a = year % 19
  const b = Math.floor(year / 100)
  const c = year % 100
  const d = Math.floor(b / 4)
  const e = b % 4
  const f = Math.floor((b + 8) / 25)
  const g = Math.floor((b - f + 1) / 3)
  const h = (19 * a + b - d - g + 15) % 30
  const i = Math.floor(c / 4)
  const k = c % 4
  const l = (32 + 2 * e + 2 * i - h - k) % 7
  const m = Math.floor((a + 11 * h + 22 * l) / 451)
  const month = Math.floor((h + l - 7 * m + 114) / 31)
  const day = ((h + l - 7 * m + 114) % 31) + 1
  return ymd(year, month, day)
}

const cache = new Map<number, Holiday[]>()

/** The public holidays of a year (Sundays aside), in date order. */
export function publicHolidays(year: number): Holiday[] {
  let list = cache.get(year)
  if (list) return list
  const easter = easterSunday(year)
  list = [
    { date: ymd(year, 1, 1), name_nb: 'Første nyttårsdag', name_en: "New Year's Day" },
    { date: addDays(easter, -3), name_nb: 'Skjærtorsdag', name_en: 'Maundy Thursday' },
    { date: addDays(easter, -2), name_nb: 'Langfredag', name_en: 'Good Friday' },
    { date: easter, name_nb: 'Første påskedag', name_en: 'Easter Sunday' },
    { date: addDays(easter, 1), name_nb: 'Andre påskedag', name_en: 'Easter Monday' },
    { date: ymd(year, 5, 1), name_nb: 'Offentlig høytidsdag (1. mai)', name_en: 'Labour Day (1 May)' },
    { date: ymd(year, 5, 17), name_nb: 'Grunnlovsdag (17. mai)', name_en: 'Constitution Day (17 May)' },
    { date: addDays(easter, 39), name_nb: 'Kristi himmelfartsdag', name_en: 'Ascension Day' },
    { date: addDays(easter, 49), name_nb: 'Første pinsedag', name_en: 'Whit Sunday' },
    { date: addDays(easter, 50), name_nb: 'Andre pinsedag', name_en: 'Whit Monday' },
    { date: ymd(year, 12, 25), name_nb: 'Første juledag', name_en: 'Christmas Day' },
    { date: ymd(year, 12, 26), name_nb: 'Andre juledag', name_en: "St Stephen's Day" },
  ].sort((x, y) => (x.date < y.date ? -1 : x.date > y.date ? 1 : 0))
  cache.set(year, list)
  return list
}

export function holidayOn(date: LocalDate): Holiday | null {
  return publicHolidays(Number(date.slice(0, 4))).find((h) => h.date === date) ?? null
}
