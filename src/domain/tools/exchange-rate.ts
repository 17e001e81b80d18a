/**
 * Norges Bank exchange rates against NOK for a day, with the fallback a bookkeeper expects.
 *
 * Norges Bank publishes indicative mid-rates around 16:00 Europe/Oslo on business days only: none
 * on weekends, Norwegian public holidays or 24 December. For a requested day the rate used is the
 * newest publication on or before the latest usable day — the requested day itself, except today
 * before 16:00 Oslo (summer and winter time alike), when today's rate must not be used even if the
 * upstream already has it. The search window reaches back LOOKBACK_DAYS, enough for Easter and
 * Christmas runs. It passes over weekends, holidays, 24 December and a late publication today
 * freely, and over at most one other working day without a rate (Norges Bank has skipped single
 * days, e.g. 31 Dec 1999, letting the previous quotation apply); a longer gap means the quotation
 * is suspended (RUB since 2 March 2022) and the answer is NO_RATE_AVAILABLE, not a stale rate.
 *
 * Behaviour chosen for edge inputs:
 * - `NOK` → INVALID_CURRENCY (NOK per NOK is 1 by definition; Norges Bank has no such series).
 * - `XDR` (SDR) accepted: an ISO 4217 code with a published NOK rate. The indices `I44` and `TWI`
 *   → INVALID_CURRENCY: they are index levels, not prices of a currency.
 * - Historic `BYR`, `HRK`, `LTL` accepted: old dates get their rate, later ones NO_RATE_AVAILABLE.
 * - Dates before 1900 → INVALID_DATE (no published series reaches that far).
 *
 * The fetcher is injected so the caller can put a cache in front of the upstream; every input
 * error is raised before it is called.
 */
import { nonWorkingReason } from '../calendar/business-days.ts'
import { AppError, validationError } from '../../errors/app-error.ts'
import { addDays, daysInMonth, type LocalDate } from '../../lib/local-date.ts'
import { osloDate, osloTimestamp } from '../../lib/oslo-time.ts'
import { MalformedUpstream } from '../../upstream/raw.ts'
import type { RateObservation } from '../../upstream/central-bank/map.ts'
import { HISTORIC_CURRENCIES, INDEX_SERIES, SUPPORTED_CURRENCIES, SUSPENDED_CURRENCIES } from './currencies.ts'
import type { ExchangeRate, FallbackReason } from '../../schemas/tools.ts'

export type { ExchangeRate } from '../../schemas/tools.ts'

/** Rates for one currency with TIME_PERIOD between `from` and `to` (inclusive), any order. */
export type RateFetcher = (currency: string, from: LocalDate, to: LocalDate) => Promise<RateObservation[]>

/** Publication time of the daily rates, Europe/Oslo wall-clock. */
export const PUBLICATION_MINUTE_OSLO = 16 * 60
/** How far before the latest usable day the window reaches. */
export const LOOKBACK_DAYS = 14
/** Working days without a rate (beyond 24 December and today) the fallback may pass over. */
export const MAX_UNEXPLAINED_GAP = 1
const EARLIEST_DATE = '1900-01-01'

const SUPPORTED = new Set(SUPPORTED_CURRENCIES)
const DAY_NAMES = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'] as const

function invalidCurrency(field: string, message: string): AppError {
  return new AppError('INVALID_CURRENCY', { context: { field }, details: [{ field, message }] })
}

function invalidDate(message: string): AppError {
  return new AppError('INVALID_DATE', { context: { field: 'date' }, details: [{ field: 'date', message }] })
}

/** Three letters, any case → upper case; anything else is INVALID_CURRENCY; absent is VALIDATION_FAILED. */
function currencyShape(input: unknown, field: string): string {
  if (input === undefined || input === null)
    throw validationError([{ field, message: 'required: a three-letter ISO 4217 code such as "EUR"' }])
  if (typeof input !== 'string' || !/^[A-Za-z]{3}$/.test(input)) {
    throw invalidCurrency(field, `${JSON.stringify(input)} is not a three-letter ISO 4217 code such as "EUR"`)
  }
  return input.toUpperCase()
}

/** A currency Norges Bank quotes against NOK, upper case. */
export function normaliseCurrency(input: unknown, field = 'currency'): string {
  const code = currencyShape(input, field)
  if (code === 'NOK') {
    throw invalidCurrency(
      field,
      'NOK is the quote currency of every Norges Bank rate: NOK per NOK is 1 by definition and no series exists. Ask for the foreign currency, e.g. "EUR".',
    )
  }
  const index = INDEX_SERIES[code]
  if (index) throw invalidCurrency(field, `${code} is ${index}, not a currency; this tool returns currency rates only.`)
  if (!SUPPORTED.has(code))
    throw invalidCurrency(
      field,
      `Norges Bank does not quote ${code} against NOK. Quoted: ${SUPPORTED_CURRENCIES.join(', ')}.`,
    )
  return code
}

/** The requested day: a real YYYY-MM-DD date from 1900 up to today (Oslo); default today. */
export function resolveDate(input: unknown, now: Date): LocalDate {
  const today = osloDate(now)
  if (input === undefined || input === null) return today
  if (typeof input !== 'string' || !/^\d{4}-\d{2}-\d{2}$/.test(input))
    throw invalidDate(`${JSON.stringify(input)} is not a date in the format YYYY-MM-DD`)
  const [y, m, d] = input.split('-').map(Number) as [number, number, number]
  if (m < 1 || m > 12 || d < 1 || d > daysInMonth(y, m)) throw invalidDate(`${input} does not exist in the calendar`)
  if (input < EARLIEST_DATE)
    throw invalidDate(`${input} is before ${EARLIEST_DATE}; no Norges Bank series reaches that far`)
  if (input > today)
    throw invalidDate(
      `${input} is in the future: today is ${today} in Europe/Oslo, and rates exist only for days already published`,
    )
  return input
}

function osloMinuteOfDay(now: Date): number {
  const t = osloTimestamp(now) // 2026-01-15T15:59:00.000+01:00
  return Number(t.slice(11, 13)) * 60 + Number(t.slice(14, 16))
}

/** The newest day whose rate may be used: `requested`, or the day before when it is today before 16:00 Oslo. */
export function latestUsableDate(requested: LocalDate, now: Date): LocalDate {
  if (requested === osloDate(now) && osloMinuteOfDay(now) < PUBLICATION_MINUTE_OSLO) return addDays(requested, -1)
  return requested
}

function isChristmasEve(date: LocalDate): boolean {
  return date.slice(5) === '12-24'
}

function fallback(requested: LocalDate, currency: string, now: Date): { reason: FallbackReason; detail: string } {
  const why = nonWorkingReason(requested)
  if (why?.kind === 'saturday' || why?.kind === 'sunday') {
    return {
      reason: 'weekend',
      detail: `${requested} is a ${why.kind === 'saturday' ? 'Saturday' : 'Sunday'}; Norges Bank publishes no rates at weekends`,
    }
  }
  if (why?.kind === 'public_holiday') {
    return {
      reason: 'public_holiday',
      detail: `${requested} is ${why.name_en} (${why.name_nb}), a Norwegian public holiday; Norges Bank publishes no rates on it`,
    }
  }
  if (requested === osloDate(now)) {
    return osloMinuteOfDay(now) < PUBLICATION_MINUTE_OSLO
      ? { reason: 'not_yet_published', detail: `today's rate is published around 16:00 Europe/Oslo and is not out yet` }
      : {
          reason: 'not_yet_published',
          detail: `today's ${currency} rate is not yet available from Norges Bank (usually published around 16:00 Europe/Oslo)`,
        }
  }
  if (isChristmasEve(requested))
    return {
      reason: 'no_publication',
      detail: `${requested} is Christmas Eve; Norges Bank publishes no rates on 24 December`,
    }
  return {
    reason: 'no_publication',
    detail: `Norges Bank published no ${currency} rate on ${requested} (a ${DAY_NAMES[new Date(`${requested}T00:00:00Z`).getUTCDay()]})`,
  }
}

function noRate(message: string): AppError {
  return new AppError('NO_RATE_AVAILABLE', { context: { field: 'date' }, details: [{ field: 'date', message }] })
}

function whyNoRate(currency: string): string {
  const historic = HISTORIC_CURRENCIES[currency]
  if (historic) return ` ${currency} is no longer quoted: ${historic}.`
  const suspended = SUSPENDED_CURRENCIES[currency]
  return suspended ? ` ${suspended}.` : ''
}

/** The rate for `input.currency` on `input.date` (default today, Oslo): NOK per one unit, labelled base NOK, quote the currency. */
export async function exchangeRate(
  input: { currency?: unknown; date?: unknown },
  now: Date,
  fetchRates: RateFetcher,
): Promise<ExchangeRate> {
  const currency = normaliseCurrency(input.currency)
  const requested = resolveDate(input.date, now)
  return rateFor(currency, requested, now, fetchRates)
}

async function rateFor(
  currency: string,
  requested: LocalDate,
  now: Date,
  fetchRates: RateFetcher,
): Promise<ExchangeRate> {
  const today = osloDate(now)
  const latest = latestUsableDate(requested, now)
  const from = addDays(latest, -LOOKBACK_DAYS)
  const observations = await fetchRates(currency, from, latest)

  let used: RateObservation | null = null
  for (const o of observations)
    if (o.currency === currency && o.date <= latest && o.date >= from && (!used || o.date > used.date)) used = o
  if (!used) {
    throw noRate(`Norges Bank published no ${currency} rate between ${from} and ${latest}.${whyNoRate(currency)}`)
  }

  let unexplained = 0
  for (let d = addDays(used.date, 1); d <= latest; d = addDays(d, 1)) {
    if (d !== today && !isChristmasEve(d) && nonWorkingReason(d) === null) unexplained++
  }
  if (unexplained > MAX_UNEXPLAINED_GAP) {
    throw noRate(
      `Norges Bank's latest ${currency} rate on or before ${latest} is from ${used.date}, with ${unexplained} working days without a rate since; the quotation appears suspended, so no rate is given for ${requested}.${whyNoRate(currency)} Ask for ${used.date} or earlier if an old rate suits your purpose.`,
    )
  }
  if (!(used.rate > 0) || !Number.isFinite(used.rate))
    throw new MalformedUpstream('norges-bank', `${currency} ${used.date}: rate ${used.value} is not a positive number`)

  const fell = used.date === requested ? null : fallback(requested, currency, now)
  return {
    currency,
    // The spec's labelling (base NOK, `rate` = NOK per one unit of the quoted currency) — the
    // reverse of the names in Norges Bank's own series key (BASE_CUR = the foreign currency).
    base: 'NOK',
    quote: currency,
    rate: used.rate,
    nok_per_unit: used.rate,
    published_value: used.value,
    unit_multiplier: 10 ** used.unit_mult,
    date: used.date,
    requested_date: requested,
    fallback_reason: fell?.reason ?? null,
    fallback_detail: fell?.detail ?? null,
    source: 'Norges Bank',
    series: `EXR/B.${currency}.NOK.SP`,
  }
}

/**
 * A currency pair as MCP asks it. Exactly one side must be NOK (any case); the answer is always
 * NOK per one unit of the other side, whichever side NOK was given on (spec: MCP table).
 */
export function resolvePair(base: unknown, quote: unknown): { currency: string } {
  const b = currencyShape(base, 'base')
  const q = currencyShape(quote, 'quote')
  if ((b === 'NOK') === (q === 'NOK')) {
    const message =
      b === 'NOK'
        ? 'both sides are NOK; exactly one side must be NOK'
        : `neither ${b} nor ${q} is NOK; Norges Bank quotes only against NOK, so exactly one side must be NOK (compute a cross rate from two NOK rates yourself)`
    throw new AppError('UNSUPPORTED_CURRENCY_PAIR', {
      context: { field: 'quote' },
      details: [{ field: 'quote', message }],
    })
  }
  return b === 'NOK' ? { currency: normaliseCurrency(q, 'quote') } : { currency: normaliseCurrency(b, 'base') }
}
