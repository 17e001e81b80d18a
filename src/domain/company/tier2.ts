/**
 * Tier 2: what a company's delegation lets its agent see beyond the open register — the employee
 * count (labour register, read as the company's system user), turnover and balance-sheet total
 * (the last annual accounts), and which deadlines are already filed (the portal's instances and
 * the filings made through Plikt). Only a consumer with an active delegation from the
 * organisation gets it; everyone else keeps Tier 1.
 */
import type { Clock } from '../../lib/clock.ts'
import type { Logger } from '../../lib/log.ts'
import type { Sql } from '../../store/db.ts'
import { actingSystemUser, activeGrantPairs, filedPeriods, grantPairId } from '../../store/delegations.ts'
import { BatchedLookup } from '../../lib/batched-lookup.ts'
import type { FilingPortal, PortalInstance } from '../../upstream/filing-portal/port.ts'
import type { LabourRegister } from '../../upstream/labour-register/port.ts'
import type { TokenService } from '../../upstream/token-service/port.ts'
import { LABOUR_REGISTER_SCOPE } from '../../upstream/government.ts'
import type { FiledLookup } from '../rulebook/evaluate.ts'
import type { CompanyFacts } from '../rulebook/facts.ts'
import type { CompanyReads, Provenance } from '../sources.ts'
import { employeeObservation, portalObservation, recordQuietly } from '../changes/observed.ts'

export interface Tier2Deps {
  sql: Sql
  clock: Clock
  logger: Logger
  reads: CompanyReads
  tokenService: TokenService
  labourRegister: LabourRegister
  filingPortal: FilingPortal
}

export interface Tier2Metrics {
  employee_count: number | null
  annual_turnover: number | null
  total_assets: number | null
  /** the accounting year turnover and assets are from */
  accounts_year: number | null
  sources: { employee_count: string; accounts: string }
}

/**
 * Whether a consumer holds an active delegation from an organisation: the gate to Tier 2. Every
 * keyed company read asks it, so concurrent requests ask together, in one statement per batch (a
 * grant committed before a request is always seen by it). One per instance (`composeDeps`).
 */
export class ActiveGrants {
  private readonly lookup: BatchedLookup<{ consumerId: string; orgNumber: string }, true>

  constructor(sql: Sql) {
    this.lookup = new BatchedLookup(
      async (pairs) => new Map([...(await activeGrantPairs(sql, pairs))].map((id) => [id, true as const])),
      grantPairId,
    )
  }

  async delegatedTo(consumerId: string | null, org: string): Promise<boolean> {
    if (consumerId === null) return false
    return (await this.lookup.get({ consumerId, orgNumber: org })) === true
  }
}

/**
 * The metrics; a part that cannot be read is null (with why in `sources`), never a failure of the
 * whole answer: Tier 2 adds to Tier 1, it does not put it at risk.
 */
export async function tier2Metrics(
  d: Tier2Deps,
  org: string,
  consumerId: string,
): Promise<{ metrics: Tier2Metrics; provenance: Provenance[] }> {
  const provenance: Provenance[] = []
  let employees: number | null = null
  let employeeSource = d.labourRegister.mock
    ? 'Aa-registeret (mock: deterministic until access is approved)'
    : 'Aa-registeret'
  try {
    // Read as the consumer's own system user (its grant's externalRef names it to the token service).
    const acting = await actingSystemUser(d.sql, consumerId, org, null)
    if (!acting) throw new Error('no system user for this consumer yet')
    const token = await d.tokenService.token({
      scope: LABOUR_REGISTER_SCOPE,
      systemUser: { org, externalRef: acting.external_ref },
    })
    employees = await d.labourRegister.employeeCount(org, token.access_token)
  } catch {
    employeeSource = 'unavailable: the labour register could not be read just now'
  }
  // A count read is an observation of the labour register for the change archive (domain/changes/observed.ts).
  if (employees !== null) await recordQuietly(d, employeeObservation(org, employees), d.clock.now())
  let turnover: number | null = null
  let assets: number | null = null
  let year: number | null = null
  let accountsSource = 'Regnskapsregisteret'
  try {
    const a = await d.reads.accounts(org)
    provenance.push(a.source)
    if (a.value.kind === 'found') {
      turnover = a.value.record.operating_revenue
      assets = a.value.record.total_assets
      year = Number(a.value.record.period_to.slice(0, 4))
    } else accountsSource = 'Regnskapsregisteret: no annual accounts registered'
  } catch {
    accountsSource = 'unavailable: the accounts register could not be read just now'
  }
  return {
    metrics: {
      employee_count: employees,
      annual_turnover: turnover,
      total_assets: assets,
      accounts_year: year,
      sources: { employee_count: employeeSource, accounts: accountsSource },
    },
    provenance,
  }
}

/** The Tier 2 facts the rulebook reads, added to the register's. */
export function withTier2(facts: CompanyFacts, m: Tier2Metrics): CompanyFacts {
  return {
    ...facts,
    employee_count: m.employee_count,
    has_payroll: m.employee_count === null ? null : m.employee_count > 0,
    annual_turnover_nok: m.annual_turnover,
    total_assets_nok: m.total_assets,
  }
}

/** Which rule and period a filing of an action type fills (rulebook ids, the rulebook's period labels). */
function ruleOfAction(actionType: string, period: string): string | null {
  if (actionType === 'mva_melding') {
    if (/^\d{4}-A$/.test(period)) return 'mva-arstermin'
    if (/^\d{4}-T[1-6]$/.test(period)) return 'mva-termin'
    return /^\d{4}-(0[1-9]|1[0-2])$/.test(period) ? 'mva-manedlig' : null
  }
  if (actionType === 'a_melding') return 'a-melding'
  return null
}

/** The portal app an instance belongs to, as the rule it files. */
const RULE_OF_APP: Record<string, (period: string) => string | null> = {
  'skd/mva-melding-innsending-v1': (p) => ruleOfAction('mva_melding', p),
  'skd/a-melding-v1': () => 'a-melding',
  'skd/formueinntekt-skattemelding-v2': () => 'skattemelding-upersonlig',
  'brg/aarsregnskap-v1': () => 'arsregnskap',
}

/** An instance's period: the last word of its title (`Mva-melding 2026-T1`). */
function periodOf(i: PortalInstance): string {
  return i.title.nb.split(' ').at(-1) ?? ''
}

/** Filed = the portal holds a submitted instance for the period, or a filing through Plikt is recorded. */
export async function filedLookup(
  d: Pick<Tier2Deps, 'sql' | 'filingPortal' | 'logger'>,
  org: string,
  now: Date,
): Promise<FiledLookup> {
  const filed = new Set<string>()
  for (const f of await filedPeriods(d.sql, org)) {
    const rule = ruleOfAction(f.action_type, f.period)
    if (rule) filed.add(`${rule}|${f.period}`)
  }
  let instances: PortalInstance[] = []
  try {
    instances = await d.filingPortal.instances(org)
    for (const i of instances) {
      // not submitted yet, or (the mock's fixed history) not by now
      if (i.process.ended === null || new Date(i.process.ended) > now) continue
      const period = periodOf(i)
      const rule = RULE_OF_APP[i.appId]?.(period)
      if (rule) filed.add(`${rule}|${period}`)
    }
  } catch {
    // The portal's list is one of two sources; the filings recorded here still count.
    return (ruleId, periodLabel) => filed.has(`${ruleId}|${periodLabel}`)
  }
  // The list read is an observation of the portal for the change archive (domain/changes/observed.ts).
  await recordQuietly(d, portalObservation(org, instances, now), now)
  return (ruleId, periodLabel) => filed.has(`${ruleId}|${periodLabel}`)
}
