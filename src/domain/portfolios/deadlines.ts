/**
 * A portfolio's deadlines in one answer: each client's deadlines exactly as the company route
 * answers them for the same window (domain/company/deadlines.ts `companyDeadlinesFor`, the one
 * code both call), each entry with the company's `org_number` and name, merged and sorted by due
 * date, then organisation number; and each client's state:
 * - `answered`: from fresh register data;
 * - `stale`: from a cached answer older than its freshness (the background warm-up is fetching a
 *   new one), with that answer's freshness;
 * - `unavailable`: no answer, with the error code a company read would answer (unknown company,
 *   a register outage with nothing cached …) — one client's failure never fails the portfolio;
 * - `pending`: not fetched yet (just added): the warm-up (domain/portfolios/warmup.ts) is on it.
 * The register is read from the cache alone (domain/sources.ts `cachedOnly`), so the answer never
 * waits for the register, and a large portfolio never becomes a burst of upstream calls.
 *
 * A sub-unit's number stands for its legal entity, as on every company read: its entries carry
 * the legal entity's number and name, and its state names the sub-unit. A legal entity held
 * several times (itself and a branch, or two branches) has its deadlines listed once.
 */
import { AppError } from '../../errors/app-error.ts'
import { CATALOGUE, type ErrorCode } from '../../errors/catalogue/index.ts'
import { canonicalJson, canonicalMembers } from '../../lib/canonical-json.ts'
import { addMonths } from '../../lib/local-date.ts'
import type { Sql } from '../../store/db.ts'
import { portfolioCompanies } from '../../store/portfolios.ts'
import { hurryWarmups, warmupFailures } from '../../store/register-warmups.ts'
import {
  companyDeadlinesFor,
  type CompanyDeadlinesData,
  type DeadlinesEnv,
  type DeadlineWindow,
} from '../company/deadlines.ts'
import { unitFacts } from '../company/obligations.ts'
import type { SubUnitBlock } from '../company/register.ts'
import { NotCached, type Provenance, type UnitReads } from '../sources.ts'
import { MAX_COMPANIES, requirePortfolio } from './portfolios.ts'

export interface PortfolioDeadlinesEnv extends DeadlinesEnv {
  sql: Sql
  /** the register from the cache alone (`UpstreamReads.cachedOnly()`) */
  reads: UnitReads
  /** the catalogue's words for an error, as a degraded part of an answer carries them */
  describe(e: AppError): { error_code: string; retryable: boolean; message: string; message_en: string }
}

export type CompanyState = 'answered' | 'stale' | 'unavailable' | 'pending'

type Entry = CompanyDeadlinesData['deadlines'][number]
export type MergedDeadline = { org_number: string; company_name: string } & Entry

export interface PortfolioCompany {
  /** the number as the portfolio holds it */
  org_number: string
  state: CompanyState
  /** the legal entity the deadlines are about: the number itself, or a sub-unit's parent */
  legal_entity_org_number: string | null
  name: string | null
  org_form: string | null
  data_tier: 'tier_1' | 'tier_2' | null
  /** whether the rulebook covers the company (a form it does not cover, or a deleted unit, has no deadlines) */
  covered: boolean | null
  deadline_count: number
  /** `_meta`-style freshness of the register answer the deadlines rest on; null when there is none */
  freshness: {
    data_freshness: string
    served_from: 'cache' | 'live'
    stale: boolean
    source_snapshot_id: string | null
  } | null
  error: { error_code: string; retryable: boolean; message: string; message_en: string } | null
  sub_unit?: SubUnitBlock
}

/**
 * Every client is read at once: the cache reads and the delegation checks of concurrent reads are
 * batched into one statement each (lib/batched-lookup.ts), so a portfolio's read is a handful of
 * statements, not one per client.
 */
const CONCURRENCY = MAX_COMPANIES

/**
 * A client's merged entries and each one's RFC 8785 canonical JSON, kept per answer of the company
 * route's memo (`DeadlinesEnv.memo`: the same object while the same register answer is cached): a
 * 1 000-client answer is then assembled from kept strings instead of serialised and canonicalised
 * again on every read. Keyed by the memoised object itself, so it lives exactly as long as the
 * instance keeps that answer (a Tier 2 answer, made per request, is never found here again).
 */
const mergedOf = new WeakMap<object, { entries: MergedDeadline[]; canonical: string[]; days: string[] }>()

/** An entry's sort key: its due day in Oslo, undated last. */
const dayOf = (d: MergedDeadline) => d.due_at?.slice(0, 10) ?? '\uffff'

function mergedEntries(data: CompanyDeadlinesData, name: string) {
  let kept = mergedOf.get(data)
  if (!kept || kept.entries[0]?.company_name !== name) {
    const entries = data.deadlines.map((d) => ({ org_number: data.org_number, company_name: name, ...d }))
    kept = { entries, canonical: entries.map(canonicalJson), days: entries.map(dayOf) }
    mergedOf.set(data, kept)
  }
  return kept
}

type Placed = { entry: MergedDeadline; canonical: string; day: string; i: number }

/** By due date (the Oslo day), undated last; then organisation number; then the company route's own order. */
function byDueThenOrg(a: Placed, b: Placed): number {
  if (a.day !== b.day) return a.day < b.day ? -1 : 1
  if (a.entry.org_number !== b.entry.org_number) return a.entry.org_number < b.entry.org_number ? -1 : 1
  return a.i - b.i
}

function freshnessOf(sources: Provenance[]): PortfolioCompany['freshness'] {
  const first = sources[0]
  if (!first) return null
  const oldest = sources.reduce((o, s) => (s.fetchedAt < o.fetchedAt ? s : o), first)
  return {
    data_freshness: oldest.fetchedAt.toISOString(),
    served_from: sources.every((s) => s.servedFrom === 'cache') ? 'cache' : 'live',
    stale: sources.some((s) => s.stale),
    source_snapshot_id: first.snapshotId,
  }
}

const nobody = {
  legal_entity_org_number: null,
  name: null,
  org_form: null,
  data_tier: null,
  covered: null,
  deadline_count: 0,
  freshness: null,
}

/**
 * The portfolio's merged deadlines for the consumer (404 when it is not the consumer's), with every
 * client's state and every read the answer rests on.
 */
export async function portfolioDeadlines(
  env: PortfolioDeadlinesEnv,
  consumerId: string,
  portfolioId: string,
  window: DeadlineWindow,
  now: Date,
) {
  const portfolio = await requirePortfolio(env.sql, consumerId, portfolioId)
  const orgs = (await portfolioCompanies(env.sql, portfolio.id)).map((c) => c.org_number)
  const answers: ({ data: CompanyDeadlinesData; sources: Provenance[] } | null)[] = new Array(orgs.length).fill(null)
  const companies: PortfolioCompany[] = new Array(orgs.length)
  let next = 0
  const worker = async () => {
    for (let i = next++; i < orgs.length; i = next++) {
      const org = orgs[i]!
      try {
        const u = await unitFacts(env.reads, org)
        const r = await companyDeadlinesFor(env, consumerId, u, window, now)
        answers[i] = r
        const freshness = freshnessOf(r.sources)
        companies[i] = {
          org_number: org,
          state: freshness?.stale ? 'stale' : 'answered',
          legal_entity_org_number: u.unit.org_number,
          name: u.unit.name,
          org_form: u.unit.org_form.code,
          data_tier: r.data.data_tier,
          covered: u.coverage.covered,
          deadline_count: r.data.deadlines.length,
          freshness,
          error: null,
          ...(u.subUnit ? { sub_unit: u.subUnit } : {}),
        }
      } catch (e) {
        if (e instanceof NotCached) {
          // pending, unless its last warm-up failed (decided below, in one statement for all of them)
          companies[i] = { org_number: org, state: 'pending', ...nobody, error: null }
        } else if (e instanceof AppError) {
          const sub = e.options.extra?.sub_unit as SubUnitBlock | undefined
          companies[i] = {
            org_number: org,
            state: 'unavailable',
            ...nobody,
            error: env.describe(e),
            ...(sub ? { sub_unit: sub } : {}),
          }
        } else throw e
      }
    }
  }
  await Promise.all(Array.from({ length: Math.min(CONCURRENCY, orgs.length) }, worker))
  const notCached = companies.filter((c) => c.state === 'pending')
  const failures = await warmupFailures(
    env.sql,
    notCached.map((c) => c.org_number),
  )
  for (const c of notCached) {
    const failed = failures.get(c.org_number)
    if (!failed) continue
    c.state = 'unavailable'
    c.error = env.describe(new AppError(failed in CATALOGUE ? (failed as ErrorCode) : 'UPSTREAM_UNAVAILABLE'))
  }
  await hurryWarmups(
    env.sql,
    notCached.filter((c) => c.state === 'pending').map((c) => c.org_number),
    now,
  )

  const merged: Placed[] = []
  const listed = new Set<string>()
  const sources: Provenance[] = []
  for (const [k, a] of answers.entries()) {
    if (!a) continue
    sources.push(...a.sources)
    if (listed.has(a.data.org_number)) continue
    listed.add(a.data.org_number)
    const kept = mergedEntries(a.data, companies[k]!.name ?? '')
    for (const [j, entry] of kept.entries.entries())
      merged.push({ entry, canonical: kept.canonical[j]!, day: kept.days[j]!, i: merged.length })
  }
  merged.sort(byDueThenOrg)
  const count = (s: CompanyState) => companies.filter((c) => c.state === s).length
  const data = {
    portfolio_id: portfolio.id,
    name: portfolio.name,
    from_date: window.fromDate,
    to_date: addMonths(window.fromDate, window.horizonMonths),
    horizon_months: window.horizonMonths,
    company_count: orgs.length,
    states: {
      answered: count('answered'),
      stale: count('stale'),
      unavailable: count('unavailable'),
      pending: count('pending'),
    },
    deadlines: merged.map((m) => m.entry),
    companies,
  }
  // The answer's canonical JSON, from the kept entries: the envelope hashes and sends it as it is.
  const { deadlines: _, ...rest } = data
  const canonical = canonicalMembers({
    ...Object.fromEntries(Object.entries(rest).map(([k, v]) => [k, canonicalJson(v)])),
    deadlines: `[${merged.map((m) => m.canonical).join(',')}]`,
  })
  return { data, canonical, sources }
}

/** The columns of the CSV form, in order: the merged entry's fields a spreadsheet needs. */
export const CSV_COLUMNS = [
  'org_number',
  'company_name',
  'obligation_id',
  'deadline_id',
  'obligation_name',
  'period_label',
  'due_at',
  'original_due_at',
  'business_day_adjusted',
  'filing_status',
  'legal_reference',
] as const

/**
 * A cell a spreadsheet would run as a formula (it starts with = + - @, a tab or a CR) gets a leading
 * apostrophe, as OWASP's CSV-injection advice has it: a company name is the register's text, not
 * ours, and the file is opened where formulas run.
 */
function csvField(raw: string): string {
  const v = /^[=+\-@\t\r]/.test(raw) ? `'${raw}` : raw
  return /[",\r\n]/.test(v) ? `"${v.replaceAll('"', '""')}"` : v
}

/** The merged deadlines as RFC 4180 CSV: a header row naming the fields, CRLF line ends, quoted where needed. */
export function deadlinesCsv(deadlines: readonly MergedDeadline[]): string {
  const rows = [CSV_COLUMNS.join(',')]
  for (const d of deadlines) {
    const cells: Record<(typeof CSV_COLUMNS)[number], string> = {
      org_number: d.org_number,
      company_name: d.company_name,
      obligation_id: d.obligation_id,
      deadline_id: d.deadline_id ?? '',
      obligation_name: d.obligation_name,
      period_label: d.period_label ?? '',
      due_at: d.due_at ?? '',
      original_due_at: d.adjusted_for?.original_due_at ?? '',
      business_day_adjusted: String(d.business_day_adjusted),
      filing_status: d.filing_status,
      legal_reference: d.legal_reference,
    }
    rows.push(CSV_COLUMNS.map((c) => csvField(cells[c])).join(','))
  }
  return `${rows.join('\r\n')}\r\n`
}
