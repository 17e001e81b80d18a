/**
 * Regnskapsregisteret's record to ours. Its key misspellings are part of the contract
 * (`regnkapsprinsipper`, `sumInnskuttEgenkaptial`) and are read as spelt. Amounts are plain numbers
 * in the record's `valuta`.
 */
import type { LocalDate } from '../../lib/local-date.ts'
import { MalformedUpstream, parseJson, type RawResponse } from '../raw.ts'

type Obj = Record<string, unknown>

export interface AccountsRecord {
  /** the register's record id */
  id: number | null
  accounts_type: string | null
  period_from: LocalDate
  period_to: LocalDate
  currency: string
  /** `store`, `smaa` or `oevrige` (oppstillingsplan) */
  presentation_plan: string | null
  /** `regnskapslovenAlminneligRegler`, `IFRS`, `forenkletAnvendelseIFRS` */
  accounting_rules: string | null
  small_company: boolean | null
  liquidation_accounts: boolean | null
  audited: boolean | null
  audit_opted_out: boolean | null
  total_assets: number | null
  total_equity_and_liabilities: number | null
  total_equity: number | null
  total_liabilities: number | null
  operating_revenue: number | null
  operating_result: number | null
  result_before_tax: number | null
  annual_result: number | null
}

export type AccountsLookup = { kind: 'found'; record: AccountsRecord } | { kind: 'none' }

function obj(v: unknown): Obj | null {
  return v !== null && typeof v === 'object' && !Array.isArray(v) ? (v as Obj) : null
}

function num(v: unknown): number | null {
  return typeof v === 'number' && Number.isFinite(v) ? v : null
}

function flag(v: unknown): boolean | null {
  return typeof v === 'boolean' ? v : null
}

function text(v: unknown): string | null {
  return typeof v === 'string' && v !== '' ? v : null
}

/** 404 (empty body) means the register has no accounts for the unit. */
export function mapAccounts(raw: RawResponse): AccountsLookup {
  const fail = (reason: string): never => {
    throw new MalformedUpstream(raw.system, reason)
  }
  if (raw.status === 404) return { kind: 'none' }
  if (raw.status !== 200) fail(`unexpected HTTP ${raw.status}`)
  const list = parseJson(raw)
  if (!Array.isArray(list)) fail('expected a JSON array')
  const records = (list as unknown[]).map((item): AccountsRecord => {
    const r = obj(item) ?? fail('record is not an object')
    const period = obj(r.regnskapsperiode)
    const from = text(period?.fraDato)
    const to = text(period?.tilDato)
    if (!from || !to || !/^\d{4}-\d{2}-\d{2}$/.test(from) || !/^\d{4}-\d{2}-\d{2}$/.test(to))
      fail('regnskapsperiode missing')
    const currency = text(r.valuta)
    if (!currency || !/^[A-Z]{3}$/.test(currency)) fail('valuta missing')
    const revisjon = obj(r.revisjon)
    const prinsipper = obj(r.regnkapsprinsipper)
    const ekGjeld = obj(r.egenkapitalGjeld)
    const resultat = obj(r.resultatregnskapResultat)
    const drift = obj(resultat?.driftsresultat)
    const notAudited = flag(revisjon?.ikkeRevidertAarsregnskap)
    return {
      id: num(r.id),
      accounts_type: text(r.regnskapstype),
      period_from: from as string,
      period_to: to as string,
      currency: currency as string,
      presentation_plan: text(r.oppstillingsplan),
      accounting_rules: text(prinsipper?.regnskapsregler),
      small_company: flag(prinsipper?.smaaForetak),
      liquidation_accounts: flag(r.avviklingsregnskap),
      audited: notAudited === null ? null : !notAudited,
      audit_opted_out: flag(revisjon?.fravalgRevisjon),
      total_assets: num(obj(r.eiendeler)?.sumEiendeler),
      total_equity_and_liabilities: num(ekGjeld?.sumEgenkapitalGjeld),
      total_equity: num(obj(ekGjeld?.egenkapital)?.sumEgenkapital),
      total_liabilities: num(obj(ekGjeld?.gjeldOversikt)?.sumGjeld),
      operating_revenue: num(obj(drift?.driftsinntekter)?.sumDriftsinntekter),
      operating_result: num(drift?.driftsresultat),
      result_before_tax: num(resultat?.ordinaertResultatFoerSkattekostnad),
      annual_result: num(resultat?.aarsresultat),
    }
  })
  if (records.length === 0) return { kind: 'none' }
  // Company accounts before group accounts, then the newest period (anonymous callers get one).
  records.sort((a, b) =>
    (a.accounts_type === 'KONSERN') !== (b.accounts_type === 'KONSERN')
      ? a.accounts_type === 'KONSERN'
        ? 1
        : -1
      : a.period_to < b.period_to
        ? 1
        : -1,
  )
  return { kind: 'found', record: records[0]! }
}
