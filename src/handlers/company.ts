/** Company data routes: thin adapters from the registry's schemas to domain/company. */
import { DEADLINE_SHIFT_BASIS } from '../domain/rulebook/rules.ts'
import { validationError, type AppError } from '../errors/app-error.ts'
import { CATALOGUE } from '../errors/catalogue/index.ts'
import { explain } from '../errors/explain.ts'
import { osloDate } from '../lib/oslo-time.ts'
import { accountsSnapshot } from '../domain/company/accounts.ts'
import { signingAuthority } from '../domain/company/authority.ts'
import { filingHistory } from '../domain/company/filing-history.ts'
import { companyDeadlinesFor, deadlineWindow, type DeadlinesEnv } from '../domain/company/deadlines.ts'
import { obligationsOf, snapshotKey, summaryOf, unitFacts } from '../domain/company/obligations.ts'
import {
  companyContext,
  companyProfile,
  companyStatuses,
  requireUnit,
  searchCompanies,
  subUnitOf,
} from '../domain/company/register.ts'
import { companySnapshot } from '../domain/company/snapshot.ts'
import { verifyCompany } from '../domain/company/verify.ts'
import { submissionsByInstance } from '../store/audit.ts'
import type * as C from '../schemas/company.ts'
import type { AppDeps, Handler, ToolBinding } from '../pipeline/context.ts'
import type { Principal } from '../domain/access/types.ts'
import { filedLookup, tier2Metrics, withTier2 } from '../domain/company/tier2.ts'
import { metaOf } from '../pipeline/provenance.ts'
import type { PrecomputedData } from '../pipeline/envelope.ts'

type OrgRoute = { params: typeof C.OrgParams }

const consumerOf = (p: Principal) => (p.kind === 'key' ? p.consumerId : null)
const tier2Deps = (deps: AppDeps) => ({
  sql: deps.sql,
  clock: deps.clock,
  logger: deps.logger,
  reads: deps.reads,
  tokenService: deps.government.tokenService,
  labourRegister: deps.government.labourRegister,
  filingPortal: deps.filingPortal,
})

/** How a failed part of an answer is described inside it (degraded sections, bulk rows). */
function describe(e: AppError) {
  const x = explain(e.code, e.options.context)
  return { error_code: e.code, retryable: CATALOGUE[e.code].retryable, message: x.summary, message_en: x.summary_en }
}

/** What one company's deadlines need of the instance (domain/company/deadlines.ts): the company route's and a portfolio's. */
export const deadlinesEnv = (deps: AppDeps): DeadlinesEnv => ({
  tier2: tier2Deps(deps),
  delegatedTo: (consumer, org) => deps.grants.delegatedTo(consumer, org),
  memo: (key, compute) => deps.answers.get(key, compute),
})

/**
 * The consumer's Tier 2 figures for a company it holds a delegation from (a sub-unit's: its legal
 * entity's), or null: the same gate the summary and context use (spec Data tiers).
 */
async function tier2Of(deps: AppDeps, principal: Principal, u: Awaited<ReturnType<typeof unitFacts>>) {
  const consumer = consumerOf(principal)
  if (!u.facts || consumer === null || !(await deps.grants.delegatedTo(consumer, u.unit.org_number))) return null
  return tier2Metrics(tier2Deps(deps), u.unit.org_number, consumer)
}

export const companyHandlers = {
  searchCompanies: (async ({ query, deps }) => {
    const name = query.name.trim().replace(/\s+/g, ' ')
    if (name.length < 2 || name.length > 100)
      throw validationError([{ field: 'name', message: 'must be 2 to 100 characters after trimming' }])
    const r = await searchCompanies(deps.reads, name)
    return { data: r.data, meta: metaOf(r.sources) }
  }) satisfies Handler<{ query: typeof C.SearchQuery }>,

  getCompanyContext: (async ({ params, deps, principal }) => {
    // (asked together: the delegation gate does not depend on the unit, and the two reads overlap)
    const [unit, delegatedAsked] = await Promise.all([
      requireUnit(deps.reads, params.org),
      deps.grants.delegatedTo(consumerOf(principal), params.org),
    ])
    // A sub-unit's answer is its legal entity's, and so is the delegation that opens Tier 2.
    const org = unit.value.org_number
    const delegated = unit.subUnit ? await deps.grants.delegatedTo(consumerOf(principal), org) : delegatedAsked
    if (!delegated) return { data: { ...companyContext(unit.value), ...subUnitOf(unit) }, meta: metaOf(unit.sources) }
    const t2 = await tier2Metrics(tier2Deps(deps), org, consumerOf(principal)!)
    return {
      data: {
        ...companyContext(unit.value),
        data_tier: 'tier_2' as const,
        tier_2: t2.metrics,
        upgrade_path: null,
        upgrade_path_en: null,
        ...subUnitOf(unit),
      },
      meta: metaOf([...unit.sources, ...t2.provenance]),
    }
  }) satisfies Handler<OrgRoute>,

  verifyCompany: (async ({ params, deps }) => {
    const r = await verifyCompany(deps.reads, params.org)
    return { data: r.data, meta: metaOf(r.sources) }
  }) satisfies Handler<OrgRoute>,

  getCompanySnapshot: (async ({ params, deps }) => {
    const r = await companySnapshot(deps.reads, params.org, describe)
    return { data: r.data, meta: metaOf(r.sources) }
  }) satisfies Handler<OrgRoute>,

  getCompanyAccounts: (async ({ params, deps }) => {
    const r = await accountsSnapshot(deps.reads, params.org)
    return { data: r.data, meta: metaOf(r.sources) }
  }) satisfies Handler<OrgRoute>,

  getCompanyAuthority: (async ({ params, deps }) => {
    const r = await signingAuthority(deps.reads, params.org)
    return { data: r.data, meta: metaOf(r.sources) }
  }) satisfies Handler<OrgRoute>,

  getCompanySummary: (async ({ params, deps, now, principal }) => {
    const fromDate = osloDate(now)
    const [u, delegatedAsked] = await Promise.all([
      unitFacts(deps.reads, params.org),
      deps.grants.delegatedTo(consumerOf(principal), params.org),
    ])
    // A sub-unit's summary is its legal entity's (named in `sub_unit`), with that entity's delegation.
    const org = u.unit.org_number
    const delegated = u.subUnit ? await deps.grants.delegatedTo(consumerOf(principal), org) : delegatedAsked
    if (u.facts && delegated) {
      // Tier 2 is the consumer's own answer (its delegation, its filings): never from the shared cache.
      const t2 = await tier2Metrics(tier2Deps(deps), org, consumerOf(principal)!)
      const filed = await filedLookup(deps, org, now)
      const r = summaryOf(
        { ...u, facts: withTier2(u.facts, t2.metrics) },
        { fromDate, horizonMonths: 12, filed },
        'tier_2',
      )
      return {
        data: r.data,
        meta: { ...metaOf([...u.sources, ...t2.provenance]), ...r.counts, legal_basis: DEADLINE_SHIFT_BASIS },
      }
    }
    const hit = deps.answers.get(`summary|${snapshotKey(u)}|${fromDate}`, () =>
      summaryOf(u, { fromDate, horizonMonths: 12 }),
    )
    return {
      data: hit.data,
      precomputed: hit.body,
      meta: { ...metaOf(u.sources), ...hit.counts, legal_basis: DEADLINE_SHIFT_BASIS },
    }
  }) satisfies Handler<OrgRoute>,

  getCompanyObligations: (async ({ params, deps, principal }) => {
    const u = await unitFacts(deps.reads, params.org)
    // One consumer, one truth: with a delegation, the verdicts use its Tier 2 facts, as the summary's do.
    const t2 = await tier2Of(deps, principal, u)
    if (t2) {
      const r = obligationsOf({ ...u, facts: withTier2(u.facts!, t2.metrics) }, 'tier_2')
      return { data: r.data, meta: { ...metaOf([...u.sources, ...t2.provenance]), ...r.counts } }
    }
    const hit = deps.answers.get(`obligations|${snapshotKey(u)}`, () => obligationsOf(u))
    return { data: hit.data, precomputed: hit.body, meta: { ...metaOf(u.sources), ...hit.counts } }
  }) satisfies Handler<OrgRoute>,

  getCompanyDeadlines: (async ({ params, query, deps, now, principal }) => {
    const window = deadlineWindow(query, now)
    const u = await unitFacts(deps.reads, params.org)
    const r = await companyDeadlinesFor(deadlinesEnv(deps), consumerOf(principal), u, window, now)
    return {
      data: r.data,
      ...(r.body ? { precomputed: r.body as PrecomputedData } : {}),
      meta: { ...metaOf(r.sources), legal_basis: DEADLINE_SHIFT_BASIS },
    }
  }) satisfies Handler<OrgRoute & { query: typeof C.DeadlinesQuery }>,

  getFilingHistory: (async ({ params, query, deps, now, principal }) => {
    const consumerId = principal.kind === 'key' ? principal.consumerId : null
    const data = await filingHistory(
      deps.filingPortal,
      params.org,
      { limit: query.limit ?? 20, cursor: query.cursor, offset: query.offset },
      now,
      async (ids) => (consumerId ? submissionsByInstance(deps.sql, consumerId, params.org, ids) : new Map()),
    )
    return {
      data,
      meta: {
        served_from: 'live',
        data_freshness: now,
        data_source: deps.filingPortal.mock
          ? 'Altinn 3 (mock: deterministic fixtures until portal access is approved)'
          : 'Altinn 3',
      },
      // RFC 9745: the deprecated parameter was used; `cursor` replaces it.
      ...(query.offset !== undefined
        ? { headers: { deprecation: '@1767225600', link: '</docs#tag/company-data>; rel="deprecation"' } }
        : {}),
    }
  }) satisfies Handler<OrgRoute & { query: typeof C.FilingHistoryQuery }>,

  getCompanyProfile: (async ({ body, deps }) => {
    const r = await companyProfile(deps.reads, body.org_number)
    return { data: r.data, meta: metaOf(r.sources) }
  }) satisfies Handler<{ body: typeof C.ProfileBody }>,

  getCompanyStatus: (async ({ query, deps }) => {
    const list = query.org_numbers.split(',').map((s) => s.trim())
    if (list.some((s) => s === ''))
      throw validationError([
        { field: 'org_numbers', message: 'has an empty entry; separate organisation numbers with single commas' },
      ])
    if (new Set(list).size > 100)
      throw validationError([{ field: 'org_numbers', message: 'at most 100 organisation numbers per call' }])
    const r = await companyStatuses(deps.reads, list, describe)
    return { data: { count: r.rows.length, rows: r.rows }, meta: metaOf(r.sources) }
  }) satisfies Handler<{ query: typeof C.CompanyStatusQuery }>,
}

const says = (text: string) => ({ justification: () => text })

export const companyTools: Record<string, ToolBinding> = {
  getCompanySummary: says(
    'The register unit evaluated by the rulebook: obligations and the next 12 months of deadlines (Tier 1).',
  ),
  getCompanyContext: says('The open register’s Tier 1 fields for the organisation.'),
  getCompanyProfile: says('The profile from Enhetsregisteret, with role codes only.'),
  getCompanyObligations: says('Every rule of the rulebook evaluated on the register’s Tier 1 facts.'),
  getCompanyDeadlines: says('The deadlines of the applicable obligations from today (Europe/Oslo).'),
  verifyCompany: says(
    'Register status and the visible signing rule decide the verdict; the other signals are for transparency.',
  ),
  getCompanyAuthority: says('Signature and procuration as Brønnøysundregistrene register them; not a legal opinion.'),
  getCompanyAccounts: says('The newest approved annual accounts in Regnskapsregisteret.'),
  getFilingHistory: says(
    'The organisation’s portal submissions, paired with this account’s own submissions where they match.',
  ),
  searchCompanies: says('Candidates by name from Enhetsregisteret.'),
}
