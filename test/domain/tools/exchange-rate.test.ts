/**
 * The exchange-rate tool: validation, the prior-business-day fallback and the 16:00 Europe/Oslo
 * publication cut-off. The upstream is a table of observations behind a recording fetcher.
 * Calendar facts used: Easter 2026 is 5 April (Maundy Thursday 2 Apr, Good Friday 3 Apr, Easter
 * Monday 6 Apr are holidays); 24 Dec 2025 is a Wednesday (no publication), 25–26 Dec holidays.
 */
import { describe, expect, test } from 'bun:test'
import { Value } from '@sinclair/typebox/value'
import { AppError } from '../../../src/errors/app-error.ts'
import { exchangeRate, resolvePair, type RateFetcher } from '../../../src/domain/tools/exchange-rate.ts'
import { ExchangeRateResult } from '../../../src/schemas/tools.ts'
import { perUnit, type RateObservation } from '../../../src/upstream/central-bank/map.ts'

/** Observations of one currency, `{date: published value}`. */
function series(currency: string, values: Record<string, string>, unitMult = 0): RateObservation[] {
  return Object.entries(values).map(([date, value]) => ({
    currency,
    date,
    value,
    unit_mult: unitMult,
    rate: perUnit(value, unitMult),
    decimals: 4,
  }))
}

/** A fetcher over a fixed table that honours the window and records each call. */
function upstream(
  observations: RateObservation[],
): RateFetcher & { calls: { currency: string; from: string; to: string }[] } {
  const calls: { currency: string; from: string; to: string }[] = []
  const fetch = (async (currency: string, from: string, to: string) => {
    calls.push({ currency, from, to })
    return observations.filter((o) => o.currency === currency && o.date >= from && o.date <= to)
  }) as RateFetcher & { calls: typeof calls }
  fetch.calls = calls
  return fetch
}

const USD = series('USD', {
  '2025-12-22': '10.1000',
  '2025-12-23': '10.2000',
  '2025-12-29': '10.3000',
  '2026-03-05': '10.5000',
  '2026-03-06': '10.6000',
  '2026-03-09': '10.7000',
  '2026-03-10': '10.8000',
  '2026-04-01': '10.9000',
  '2026-04-07': '11.0000',
  '2026-06-15': '9.9000',
  '2026-06-16': '9.9500',
})
const SEK = series('SEK', { '2026-03-06': '101.14' }, 2)
const RUB = series('RUB', { '2022-02-28': '11.2000', '2022-03-01': '9.1000' })
const ALL = [...USD, ...SEK, ...RUB]

const evening = new Date('2026-06-20T18:00:00Z') // well after every date above

async function appError(p: Promise<unknown>): Promise<AppError> {
  try {
    await p
  } catch (e) {
    expect(e).toBeInstanceOf(AppError)
    return e as AppError
  }
  throw new Error('expected an AppError')
}

describe('a published day', () => {
  test('a business day with a rate answers that day, no fallback', async () => {
    const r = await exchangeRate({ currency: 'USD', date: '2026-03-06' }, evening, upstream(ALL))
    expect(r).toMatchObject({
      currency: 'USD',
      base: 'NOK',
      quote: 'USD',
      rate: 10.6,
      nok_per_unit: 10.6,
      published_value: '10.6000',
      unit_multiplier: 1,
      date: '2026-03-06',
      requested_date: '2026-03-06',
      fallback_reason: null,
      fallback_detail: null,
      source: 'Norges Bank',
      series: 'EXR/B.USD.NOK.SP',
    })
  })

  test('the answer matches the published schema', async () => {
    const r = await exchangeRate({ currency: 'USD', date: '2026-03-07' }, evening, upstream(ALL))
    expect(Value.Check(ExchangeRateResult, r)).toBe(true)
  })

  test('UNIT_MULT 2 (SEK per hundred) gives the rate per ONE unit and keeps the published value', async () => {
    const r = await exchangeRate({ currency: 'SEK', date: '2026-03-06' }, evening, upstream(ALL))
    expect(r).toMatchObject({ rate: 1.0114, nok_per_unit: 1.0114, published_value: '101.14', unit_multiplier: 100 })
  })

  test('a lower-case currency is accepted and normalised', async () => {
    const r = await exchangeRate({ currency: 'usd', date: '2026-03-06' }, evening, upstream(ALL))
    expect(r.currency).toBe('USD')
    expect(r.series).toBe('EXR/B.USD.NOK.SP')
  })
})

describe('fallback to the prior publication', () => {
  test('Saturday falls back to Friday with reason weekend', async () => {
    const r = await exchangeRate({ currency: 'USD', date: '2026-03-07' }, evening, upstream(ALL))
    expect(r).toMatchObject({ date: '2026-03-06', requested_date: '2026-03-07', fallback_reason: 'weekend' })
    expect(r.fallback_detail).toContain('Saturday')
  })

  test('Easter Monday falls back over the whole Easter run to the Wednesday before Maundy Thursday', async () => {
    const r = await exchangeRate({ currency: 'USD', date: '2026-04-06' }, evening, upstream(ALL))
    expect(r).toMatchObject({ date: '2026-04-01', fallback_reason: 'public_holiday', rate: 10.9 })
    expect(r.fallback_detail).toContain('Easter Monday')
  })

  test('Good Friday falls back to the Wednesday too', async () => {
    const r = await exchangeRate({ currency: 'USD', date: '2026-04-03' }, evening, upstream(ALL))
    expect(r).toMatchObject({ date: '2026-04-01', fallback_reason: 'public_holiday' })
  })

  test('Christmas Day falls back to 23 December, passing over Christmas Eve', async () => {
    const r = await exchangeRate({ currency: 'USD', date: '2025-12-25' }, evening, upstream(ALL))
    expect(r).toMatchObject({ date: '2025-12-23', fallback_reason: 'public_holiday' })
  })

  test('Christmas Eve, a working day without publication, falls back with reason no_publication', async () => {
    const r = await exchangeRate({ currency: 'USD', date: '2025-12-24' }, evening, upstream(ALL))
    expect(r).toMatchObject({ date: '2025-12-23', fallback_reason: 'no_publication' })
    expect(r.fallback_detail).toContain('Christmas Eve')
  })

  test('the Sunday after Christmas falls back to 23 December with reason weekend', async () => {
    const r = await exchangeRate({ currency: 'USD', date: '2025-12-28' }, evening, upstream(ALL))
    expect(r).toMatchObject({ date: '2025-12-23', fallback_reason: 'weekend' })
  })

  test('the window ends at the latest usable day and reaches back 14 days', async () => {
    const fetch = upstream(ALL)
    await exchangeRate({ currency: 'USD', date: '2026-04-06' }, evening, fetch)
    expect(fetch.calls).toEqual([{ currency: 'USD', from: '2026-03-23', to: '2026-04-06' }])
  })
})

describe('publication at 16:00 Europe/Oslo', () => {
  test('today before 16:00 (winter time) uses yesterday even though the upstream already has today', async () => {
    const fetch = upstream(ALL)
    const r = await exchangeRate({ currency: 'USD' }, new Date('2026-03-10T14:59:00Z'), fetch) // 15:59 CET
    expect(r).toMatchObject({ date: '2026-03-09', requested_date: '2026-03-10', fallback_reason: 'not_yet_published' })
    expect(fetch.calls[0]!.to).toBe('2026-03-09')
  })

  test('today at 16:00 (winter time) uses today', async () => {
    const r = await exchangeRate({ currency: 'USD' }, new Date('2026-03-10T15:00:00Z'), upstream(ALL)) // 16:00 CET
    expect(r).toMatchObject({ date: '2026-03-10', requested_date: '2026-03-10', fallback_reason: null })
  })

  test('today before 16:00 in summer time (15:59 CEST = 13:59 UTC) uses yesterday', async () => {
    const r = await exchangeRate(
      { currency: 'USD', date: '2026-06-16' },
      new Date('2026-06-16T13:59:00Z'),
      upstream(ALL),
    )
    expect(r).toMatchObject({ date: '2026-06-15', fallback_reason: 'not_yet_published' })
  })

  test('today at 16:00 in summer time (14:00 UTC) uses today', async () => {
    const r = await exchangeRate(
      { currency: 'USD', date: '2026-06-16' },
      new Date('2026-06-16T14:00:00Z'),
      upstream(ALL),
    )
    expect(r).toMatchObject({ date: '2026-06-16', fallback_reason: null })
  })

  test('after 16:00 but not yet in the upstream (a late publication) falls back with not_yet_published', async () => {
    const late = upstream(ALL.filter((o) => o.date !== '2026-03-10'))
    const r = await exchangeRate({ currency: 'USD' }, new Date('2026-03-10T15:30:00Z'), late)
    expect(r).toMatchObject({ date: '2026-03-09', fallback_reason: 'not_yet_published' })
  })

  test('the default date is the Oslo date, not the UTC one', async () => {
    const r = await exchangeRate({ currency: 'USD' }, new Date('2026-03-09T23:30:00Z'), upstream(ALL)) // 00:30 on 10 March in Oslo
    expect(r).toMatchObject({ requested_date: '2026-03-10', date: '2026-03-09', fallback_reason: 'not_yet_published' })
  })
})

describe('no rate', () => {
  test('no observations in the window is NO_RATE_AVAILABLE (404)', async () => {
    const e = await appError(exchangeRate({ currency: 'EUR', date: '2026-03-06' }, evening, upstream(ALL)))
    expect(e.code).toBe('NO_RATE_AVAILABLE')
    expect(e.status).toBe(404)
  })

  test('a suspended quotation (RUB) is NO_RATE_AVAILABLE, not a stale rate, once working days pass without one', async () => {
    const e = await appError(exchangeRate({ currency: 'RUB', date: '2022-03-10' }, evening, upstream(ALL)))
    expect(e.code).toBe('NO_RATE_AVAILABLE')
    expect(e.options.details![0]!.message).toContain('suspended')
  })

  test('a single working day without a rate falls back with reason no_publication', async () => {
    const r = await exchangeRate({ currency: 'RUB', date: '2022-03-02' }, evening, upstream(ALL))
    expect(r).toMatchObject({ date: '2022-03-01', fallback_reason: 'no_publication' })
  })
})

describe('input errors, all before any fetch', () => {
  const cases: [string, { currency?: unknown; date?: unknown }, string][] = [
    ['unknown currency', { currency: 'XYZ' }, 'INVALID_CURRENCY'],
    ['not three letters', { currency: 'US' }, 'INVALID_CURRENCY'],
    ['NOK itself', { currency: 'NOK' }, 'INVALID_CURRENCY'],
    ['an index series (I44)', { currency: 'I44' }, 'INVALID_CURRENCY'],
    ['missing currency', {}, 'VALIDATION_FAILED'],
    ['a future date', { currency: 'USD', date: '2026-06-21' }, 'INVALID_DATE'],
    ['30 February', { currency: 'USD', date: '2026-02-30' }, 'INVALID_DATE'],
    ['month 13', { currency: 'USD', date: '2026-13-01' }, 'INVALID_DATE'],
    ['not zero-padded', { currency: 'USD', date: '2026-3-6' }, 'INVALID_DATE'],
    ['before 1900', { currency: 'USD', date: '1899-12-29' }, 'INVALID_DATE'],
  ]
  for (const [name, input, code] of cases) {
    test(`${name} → ${code}`, async () => {
      const fetch = upstream(ALL)
      const e = await appError(exchangeRate(input, evening, fetch))
      expect(e.code).toBe(code as AppError['code'])
      expect(e.status).toBe(400)
      expect(fetch.calls).toHaveLength(0)
    })
  }

  test('NOK is refused with a message saying why', async () => {
    const e = await appError(exchangeRate({ currency: 'nok' }, evening, upstream(ALL)))
    expect(e.options.details![0]!.message).toContain('NOK per NOK is 1')
  })

  test('a future date names today in Oslo', async () => {
    const e = await appError(exchangeRate({ currency: 'USD', date: '2026-06-21' }, evening, upstream(ALL)))
    expect(e.options.details![0]).toEqual({
      field: 'date',
      message: expect.stringContaining('today is 2026-06-20 in Europe/Oslo'),
    })
  })

  test('XDR (an ISO 4217 code Norges Bank publishes) is accepted', async () => {
    const fetch = upstream(series('XDR', { '2026-03-06': '14.2500' }))
    expect((await exchangeRate({ currency: 'xdr', date: '2026-03-06' }, evening, fetch)).rate).toBe(14.25)
  })
})

describe('currency pairs (MCP)', () => {
  test('USD/NOK is the published direction', () => {
    expect(resolvePair('USD', 'NOK')).toEqual({ currency: 'USD' })
  })

  test('nok/usd (any case) asks for the same series: the answer is always NOK per unit', () => {
    expect(resolvePair('nok', 'usd')).toEqual({ currency: 'USD' })
  })

  test('a pair without NOK is UNSUPPORTED_CURRENCY_PAIR', () => {
    expect(() => resolvePair('EUR', 'USD')).toThrow(
      expect.objectContaining({ code: 'UNSUPPORTED_CURRENCY_PAIR', status: 400 }),
    )
  })

  test('NOK/NOK is UNSUPPORTED_CURRENCY_PAIR', () => {
    expect(() => resolvePair('NOK', 'nok')).toThrow(expect.objectContaining({ code: 'UNSUPPORTED_CURRENCY_PAIR' }))
  })

  test('an unknown foreign side of a NOK pair is INVALID_CURRENCY on that field', async () => {
    const e = await appError((async () => resolvePair('NOK', 'XYZ'))())
    expect(e.code).toBe('INVALID_CURRENCY')
    expect(e.options.details![0]!.field).toBe('quote')
  })
})
