/**
 * One company's deadlines in a window, as `GET /api/v1/company/{org}/deadlines` answers them: the
 * window read and checked from the route's parameters, then the register unit's facts — with the
 * consumer's Tier 2 figures and filed periods when it holds a delegation from the company, as on
 * every company read. The company route and a portfolio's merged deadlines
 * (domain/portfolios/deadlines.ts) both call `companyDeadlinesFor`, so a client's entries in the
 * merged answer are exactly the company route's.
 */
import { validationError } from '../../errors/app-error.ts'
import { addMonths, isLocalDate, type LocalDate } from '../../lib/local-date.ts'
import { osloDate } from '../../lib/oslo-time.ts'
import type { Provenance } from '../sources.ts'
import { deadlinesOf, snapshotKey, type UnitFacts } from './obligations.ts'
import { filedLookup, tier2Metrics, withTier2, type Tier2Deps } from './tier2.ts'

/** The whole days of a date the latest from_date may reach; beyond it the calendar is not meaningful. */
const MAX_TO_DATE = '2100-12-31'

export interface DeadlineWindow {
  fromDate: LocalDate
  horizonMonths: number
}

/** The route's `from_date` (default today in Europe/Oslo) and `horizon_months` (default 12), checked. */
export function deadlineWindow(q: { from_date?: string; horizon_months?: number }, now: Date): DeadlineWindow {
  const fromDate = q.from_date ?? osloDate(now)
  const horizonMonths = q.horizon_months ?? 12
  if (!isLocalDate(fromDate))
    throw validationError([{ field: 'from_date', message: 'is not a calendar date (YYYY-MM-DD)' }])
  if (fromDate < '2020-01-01' || addMonths(fromDate, horizonMonths) > MAX_TO_DATE) {
    throw validationError([
      { field: 'from_date', message: 'must be between 2020-01-01 and a date whose horizon ends by 2100-12-31' },
    ])
  }
  return { fromDate, horizonMonths }
}

export type CompanyDeadlinesData = ReturnType<typeof deadlinesOf>

/** What the per-company deadlines need besides the unit: the Tier 2 gate and reads, and the memo of Tier 1 answers. */
export interface DeadlinesEnv {
  tier2: Tier2Deps
  delegatedTo(consumerId: string | null, org: string): Promise<boolean>
  /**
   * The instance's memo of Tier 1 answers, by snapshot and question (pipeline/answer-cache.ts):
   * `body` is the answer serialised once, which the company route sends as it is.
   */
  memo(key: string, compute: () => { data: unknown; counts: null }): { data: unknown; body: unknown }
}

export interface CompanyDeadlinesAnswer {
  data: CompanyDeadlinesData
  /** every read the answer rests on (the register's, and Tier 2's when delegated) */
  sources: Provenance[]
  /** the memoised Tier 1 answer's serialised body; absent on Tier 2 (the consumer's own answer) */
  body?: unknown
}

/**
 * The company's deadlines for the consumer: Tier 2 (its figures and filed periods, never from a
 * shared memo) when it holds a delegation from the legal entity, else the memoised Tier 1 answer.
 */
export async function companyDeadlinesFor(
  env: DeadlinesEnv,
  consumerId: string | null,
  u: UnitFacts,
  window: DeadlineWindow,
  now: Date,
): Promise<CompanyDeadlinesAnswer> {
  const opts = { fromDate: window.fromDate, horizonMonths: window.horizonMonths }
  if (u.facts && consumerId !== null && (await env.delegatedTo(consumerId, u.unit.org_number))) {
    const t2 = await tier2Metrics(env.tier2, u.unit.org_number, consumerId)
    const filed = await filedLookup(env.tier2, u.unit.org_number, now)
    const data = deadlinesOf({ ...u, facts: withTier2(u.facts, t2.metrics) }, { ...opts, filed }, 'tier_2')
    return { data, sources: [...u.sources, ...t2.provenance] }
  }
  const hit = env.memo(`deadlines|${snapshotKey(u)}|${window.fromDate}|${window.horizonMonths}`, () => ({
    data: deadlinesOf(u, opts),
    counts: null,
  }))
  return { data: hit.data as CompanyDeadlinesData, sources: u.sources, body: hit.body }
}
