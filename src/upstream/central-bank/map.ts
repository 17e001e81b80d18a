/**
 * Norges Bank EXR answers (SDMX-JSON) → rate observations per currency. Pure: no I/O, no clock.
 *
 * The format (upstreams.md §3): a series key `a:b:c:d` holds indices into
 * `structure.dimensions.series[i].values`; an observation key is an index into the TIME_PERIOD
 * values; a series' `attributes[k]` is an index into `structure.attributes.series[k].values`, so
 * UNIT_MULT (and DECIMALS) are resolved per series — with several currencies in one answer the
 * attribute value list is shared and its order says nothing about which series uses which value.
 * Observation values are strings; `value` keeps them verbatim and `rate` is NOK per ONE unit
 * (value / 10^UNIT_MULT), computed by moving the decimal point in the string so that no binary
 * division adds an error beyond parsing the final decimal.
 *
 * Status handling: 200 → parse; 404 (no records in the window) → empty map; anything else →
 * MalformedUpstream naming the status. Transient statuses never get here: UpstreamClient retries
 * them and throws when they persist.
 */
import type { LocalDate } from '../../lib/local-date.ts'
import { MalformedUpstream, parseJson, type RawResponse } from '../raw.ts'

export interface RateObservation {
  /** BASE_CUR, e.g. `USD` */
  currency: string
  /** TIME_PERIOD, the publication (business) day */
  date: LocalDate
  /** OBS_VALUE exactly as published: NOK per 10^unit_mult units */
  value: string
  /** UNIT_MULT of the series: 0 (units) or 2 (hundreds, e.g. SEK, DKK, JPY) */
  unit_mult: number
  /** NOK per ONE unit of the currency = value / 10^unit_mult */
  rate: number
  /** DECIMALS attribute of the series, null when absent */
  decimals: number | null
}

type Json = Record<string, unknown>

const NUMBER = /^-?\d+(\.\d+)?$/
const DATE = /^\d{4}-\d{2}-\d{2}$/

function isObject(v: unknown): v is Json {
  return typeof v === 'object' && v !== null && !Array.isArray(v)
}

interface Component {
  id: string
  values: string[]
}

/** `value` / 10^mult by moving the decimal point in the decimal string, then one parse. */
export function perUnit(value: string, mult: number): number {
  if (mult === 0) return Number(value)
  const negative = value.startsWith('-')
  const [int = '', frac = ''] = (negative ? value.slice(1) : value).split('.')
  const digits = int + frac
  const point = int.length - mult
  const shifted = point <= 0 ? `0.${'0'.repeat(-point)}${digits}` : `${digits.slice(0, point)}.${digits.slice(point)}`
  return Number(`${negative ? '-' : ''}${shifted}`)
}

export function mapExchangeRates(raw: RawResponse): Map<string, RateObservation[]> {
  if (raw.status === 404) return new Map()
  if (raw.status !== 200)
    throw new MalformedUpstream(raw.system, `unexpected HTTP ${raw.status} from the exchange-rate API`)
  const fail = (reason: string): never => {
    throw new MalformedUpstream(raw.system, reason)
  }

  const doc = parseJson(raw)
  if (!isObject(doc)) return fail('body is not a JSON object')
  // SDMX-JSON 1.0 wraps in `data`; older answers put dataSets/structure at the top.
  const body = isObject(doc.data) ? doc.data : doc
  const dataSets = body.dataSets
  const structure = body.structure
  if (!Array.isArray(dataSets)) return fail('dataSets is missing or not an array')
  if (!isObject(structure)) return fail('structure is missing')

  // A dimension value always has an id (SDMX-JSON 1.0 schema, `values`: id and name required). An
  // attribute value need not (schema, `attrvalues`): it may be null, and an uncoded attribute such as
  // TITLE has values with a name only. Such values are kept as null; only an attribute this map reads
  // (UNIT_MULT, DECIMALS) fails, when a series points at a value without an id.
  const components = <T extends string | null>(
    list: unknown,
    where: string,
    value: (v: unknown, at: string) => T,
  ): Array<{ id: string; values: T[] }> => {
    if (!Array.isArray(list)) return fail(`${where} is not an array`)
    return list.map((c, i) => {
      if (!isObject(c) || typeof c.id !== 'string' || !Array.isArray(c.values))
        return fail(`${where}[${i}] lacks id or values`)
      return { id: c.id, values: c.values.map((v, j) => value(v, `${where}[${i}].values[${j}]`)) }
    })
  }
  const coded = (v: unknown, at: string): string =>
    isObject(v) && typeof v.id === 'string' ? v.id : fail(`${at} lacks an id`)
  const codedOrNot = (v: unknown): string | null => (isObject(v) && typeof v.id === 'string' ? v.id : null)
  const dims = isObject(structure.dimensions) ? structure.dimensions : fail('structure.dimensions is missing')
  const seriesDims: Component[] = components(dims.series, 'structure.dimensions.series', coded)
  const obsDims: Component[] = components(dims.observation, 'structure.dimensions.observation', coded)
  const attrs = isObject(structure.attributes) ? structure.attributes : fail('structure.attributes is missing')
  const seriesAttrs = components(attrs.series, 'structure.attributes.series', codedOrNot)

  const baseDim = seriesDims.findIndex((d) => d.id === 'BASE_CUR')
  const quoteDim = seriesDims.findIndex((d) => d.id === 'QUOTE_CUR')
  const time = obsDims.find((d) => d.id === 'TIME_PERIOD')
  const unitAttr = seriesAttrs.findIndex((a) => a.id === 'UNIT_MULT')
  const decimalsAttr = seriesAttrs.findIndex((a) => a.id === 'DECIMALS')
  if (baseDim < 0) return fail('no BASE_CUR series dimension')
  if (!time) return fail('no TIME_PERIOD observation dimension')
  if (unitAttr < 0) return fail('no UNIT_MULT series attribute')

  const index = (v: unknown, length: number, where: string): number => {
    const n = typeof v === 'string' && /^\d+$/.test(v) ? Number(v) : v
    if (typeof n !== 'number' || !Number.isInteger(n) || n < 0 || n >= length)
      return fail(`${where}: index ${JSON.stringify(v)} out of range (0–${length - 1})`)
    return n
  }
  const attribute = (seriesAttributes: unknown[], k: number, key: string): string | null => {
    const v = seriesAttributes[k]
    if (v === null || v === undefined) return null
    return (
      seriesAttrs[k]!.values[
        index(v, seriesAttrs[k]!.values.length, `series "${key}" attribute ${seriesAttrs[k]!.id}`)
      ] ?? null
    )
  }

  const out = new Map<string, RateObservation[]>()
  dataSets.forEach((ds, d) => {
    if (!isObject(ds)) return fail(`dataSets[${d}] is not an object`)
    if (ds.series === undefined) return
    if (!isObject(ds.series)) return fail(`dataSets[${d}].series is not an object`)
    for (const [key, series] of Object.entries(ds.series)) {
      const parts = key.split(':')
      if (parts.length !== seriesDims.length)
        return fail(`series key "${key}" has ${parts.length} positions, the structure ${seriesDims.length}`)
      const pos = parts.map((p, i) => index(p, seriesDims[i]!.values.length, `series key "${key}" position ${i}`))
      const currency = seriesDims[baseDim]!.values[pos[baseDim]!]!
      if (quoteDim >= 0 && seriesDims[quoteDim]!.values[pos[quoteDim]!] !== 'NOK')
        return fail(`series "${key}" is not quoted in NOK`)
      if (!isObject(series)) return fail(`series "${key}" is not an object`)
      const seriesAttributes = Array.isArray(series.attributes)
        ? series.attributes
        : fail(`series "${key}" lacks attributes`)

      const unit = attribute(seriesAttributes, unitAttr, key)
      if (unit === null || !/^\d{1,2}$/.test(unit))
        return fail(`series "${key}" UNIT_MULT ${JSON.stringify(unit)} is not a small integer`)
      const unitMult = Number(unit)
      const dec = decimalsAttr >= 0 ? attribute(seriesAttributes, decimalsAttr, key) : null
      const decimals = dec !== null && /^\d{1,2}$/.test(dec) ? Number(dec) : null

      const observations = series.observations === undefined ? {} : series.observations
      if (!isObject(observations)) return fail(`series "${key}" observations is not an object`)
      const list = out.get(currency) ?? []
      for (const [obsKey, obs] of Object.entries(observations)) {
        const date = time.values[index(obsKey, time.values.length, `series "${key}" observation key`)]!
        if (!DATE.test(date)) return fail(`TIME_PERIOD "${date}" is not a YYYY-MM-DD date`)
        if (!Array.isArray(obs)) return fail(`series "${key}" observation "${obsKey}" is not an array`)
        const v = obs[0]
        // SDMX-JSON writes a missing observation as null: no rate that day, not garbage.
        if (v === null || v === undefined) continue
        const value = typeof v === 'number' && Number.isFinite(v) ? String(v) : v
        if (typeof value !== 'string' || !NUMBER.test(value))
          return fail(`series "${key}" observation ${date}: value ${JSON.stringify(v)} is not a number`)
        list.push({ currency, date, value, unit_mult: unitMult, rate: perUnit(value, unitMult), decimals })
      }
      out.set(currency, list)
    }
  })
  for (const list of out.values()) list.sort((a, b) => (a.date < b.date ? -1 : a.date > b.date ? 1 : 0))
  return out
}

/** The observations of one currency in an answer, sorted by date; empty when it has none. */
export function observationsOf(raw: RawResponse, currency: string): RateObservation[] {
  return mapExchangeRates(raw).get(currency) ?? []
}
