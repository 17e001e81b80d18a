/**
 * Norwegian identity numbers: the fødselsnummer and the numbers built like it — D-numbers (day
 * + 40), H-numbers and NAV's synthetic test numbers (month + 40), Skatteetaten's synthetic test
 * numbers (month + 80). Eleven digits: DDMMYY, a three-digit individual number, then two MOD-11
 * control digits, the first over digits 1–9 with weights 3 7 6 1 8 9 4 5 2, the second over
 * digits 1–10 with weights 5 4 3 2 7 6 5 4 3 2 (remainder 0 → 0; a control value of 10 means no
 * valid number has those nine digits).
 *
 * The value itself is personal data: callers keep it only long enough to check it and take what
 * they need from it (the HMAC, the encoded birth date), and never log, store or return it.
 */
import { daysInMonth } from './local-date.ts'

const K1 = [3, 7, 6, 1, 8, 9, 4, 5, 2]
const K2 = [5, 4, 3, 2, 7, 6, 5, 4, 3, 2]

function control(digits: number[], weights: number[]): number | null {
  let sum = 0
  for (let i = 0; i < weights.length; i++) sum += digits[i]! * weights[i]!
  const c = 11 - (sum % 11)
  if (c === 11) return 0
  return c === 10 ? null : c
}

/** Eleven digits whose two control digits are right: a fødselsnummer, D-number or synthetic test number. */
export function isIdentityNumber(value: string): boolean {
  if (!/^[0-9]{11}$/.test(value)) return false
  const d = Array.from(value, Number)
  return control(d, K1) === d[9] && control(d, K2) === d[10]
}

/**
 * The birth date a number encodes. `year` is null when the individual number does not place the
 * two-digit year in a century (combinations that are not issued); the day and month are still known.
 */
export interface EncodedBirthDate {
  day: number
  month: number
  /** the last two digits of the year */
  yy: number
  year: number | null
}

/** The century of a two-digit year, by the individual-number ranges Skatteetaten issues. */
function yearOf(yy: number, individual: number): number | null {
  if (individual <= 499) return 1900 + yy
  if (individual <= 749 && yy >= 54) return 1800 + yy
  if (yy <= 39) return 2000 + yy
  if (individual >= 900) return 1900 + yy
  return null
}

/**
 * The birth date of a valid identity number, or null when it encodes none: a number whose day and
 * month (after the D-number and synthetic offsets) are not a calendar date — the common
 * help numbers (FH-numbers, first digit 8 or 9) among them.
 */
export function birthDateOf(value: string): EncodedBirthDate | null {
  let day = Number(value.slice(0, 2))
  let month = Number(value.slice(2, 4))
  const yy = Number(value.slice(4, 6))
  if (day > 40 && day <= 71) day -= 40
  if (month > 80 && month <= 92) month -= 80
  else if (month > 40 && month <= 52) month -= 40
  const year = yearOf(yy, Number(value.slice(6, 9)))
  // With the century unknown, 29 February stands whenever the two digits can be a leap year.
  if (month < 1 || month > 12 || day < 1 || day > daysInMonth(year ?? 2000 + yy, month)) return null
  return { day, month, yy, year }
}

/** Whether a `YYYY-MM-DD` date is the one encoded (the year compared in full when the number fixes it). */
export function sameBirthDate(encoded: EncodedBirthDate, date: string): boolean {
  const m = /^([0-9]{4})-([0-9]{2})-([0-9]{2})$/.exec(date)
  if (!m) return false
  const [year, month, day] = [Number(m[1]), Number(m[2]), Number(m[3])]
  if (month !== encoded.month || day !== encoded.day) return false
  return encoded.year === null ? year % 100 === encoded.yy : year === encoded.year
}
