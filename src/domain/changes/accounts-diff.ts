/**
 * The accounts diff (spec: Events): each covered company's annual-accounts filing status — the
 * snapshot's `has_filed_annual_accounts` and `last_accounts_year` — asked from the register and
 * compared with a private baseline. A company's first observation only records the baseline. A
 * difference is archived as one `accounts.updated` change per field, with the register's answer
 * archived as its snapshot, and the deliveries to matching subscriptions are queued with it.
 *
 * Asking happens outside any transaction; then one transaction per batch locks the batch's
 * baselines and compares against what they hold *now*, so two runs observing the same company at
 * once (two instances, an operator's run beside the scheduled one) emit its change once.
 */
import type { Clock } from '../../lib/clock.ts'
import type { Logger } from '../../lib/log.ts'
import {
  lockBaselines,
  nextDiffCandidates,
  writeBaselines,
  type Baseline,
  type DiffCandidate,
  type Observation,
} from '../../store/accounts-baseline.ts'
import { appendChanges, type NewChange } from '../../store/changes.ts'
import type { Sql } from '../../store/db.ts'
import { archiveAnswer } from '../../store/upstream-cache.ts'
import { mapAccounts } from '../../upstream/accounts-register/map.ts'
import type { AccountsRegister } from '../../upstream/accounts-register/port.ts'
import { mapUnit } from '../../upstream/business-register/map.ts'
import type { RawResponse } from '../../upstream/raw.ts'
import { filingStatusOf, mustFileForm } from '../company/accounts.ts'
import { ACCOUNTS_EVENT, CHANGE_SOURCE } from './vocabulary.ts'

export interface DiffDeps {
  sql: Sql
  clock: Clock
  logger: Logger
  accounts: AccountsRegister
}

/** Companies per batch: one query for the batch, one transaction for its results. */
export const DIFF_BATCH = 500
/** Register requests in flight at once. */
export const DIFF_CONCURRENCY = 32

export interface DiffResult {
  observed: number
  baselined: number
  changed: number
  changes: number
  deliveries: number
  failed: number
  /** set when the run stopped early: a whole batch failed, so the register is down; the next run resumes */
  stopped: string | null
}

const FIELDS = ['has_filed_annual_accounts', 'last_accounts_year'] as const

/**
 * Observes every covered company last observed at or before `observedUpTo`, in batches by org number,
 * holding one batch in memory at a time. A company whose request fails keeps its old observation
 * time, so the next run asks again.
 */
export async function runAccountsDiff(deps: DiffDeps, observedUpTo: Date): Promise<DiffResult> {
  const total: DiffResult = {
    observed: 0,
    baselined: 0,
    changed: 0,
    changes: 0,
    deliveries: 0,
    failed: 0,
    stopped: null,
  }
  // the companies observed before, then those looked up since the last run
  for (const kind of ['observed', 'new'] as const) {
    let after = ''
    for (;;) {
      const batch = await nextDiffCandidates(deps.sql, kind, after, observedUpTo, DIFF_BATCH)
      if (batch.length === 0) break
      after = batch[batch.length - 1]!.org_number
      const r = await observeAccounts(deps, batch)
      add(total, r)
      if (r.observed === 0) {
        total.stopped = `every request of a batch of ${batch.length} failed`
        return total
      }
    }
  }
  return total
}

function add(total: DiffResult, r: DiffResult) {
  total.observed += r.observed
  total.baselined += r.baselined
  total.changed += r.changed
  total.changes += r.changes
  total.deliveries += r.deliveries
  total.failed += r.failed
}

type Fetched = {
  candidate: DiffCandidate
  raw: RawResponse
  status: Omit<Baseline, 'org_form'>
  orgForm: string | null
}

/** Asks the register about each company and records what changed; see the file's comment. */
export async function observeAccounts(deps: DiffDeps, candidates: DiffCandidate[]): Promise<DiffResult> {
  const fetched: (Fetched | null)[] = new Array(candidates.length).fill(null)
  let next = 0
  const worker = async () => {
    for (let i = next++; i < candidates.length; i = next++) {
      const c = candidates[i]!
      try {
        const raw = await deps.accounts.accounts(c.org_number)
        const orgForm = c.baseline?.org_form ?? orgFormOf(c)
        fetched[i] = {
          candidate: c,
          raw,
          status: filingStatusOf(orgForm === null ? null : mustFileForm(orgForm), mapAccounts(raw)),
          orgForm,
        }
      } catch (e) {
        deps.logger.warn('accounts diff: register request failed; the company is asked again next run', {
          org_number: c.org_number,
          error: e instanceof Error ? e.message : String(e),
        })
      }
    }
  }
  await Promise.all(Array.from({ length: Math.min(DIFF_CONCURRENCY, candidates.length) }, worker))
  const ok = fetched.filter((f): f is Fetched => f !== null)
  const result: DiffResult = {
    observed: ok.length,
    baselined: 0,
    changed: 0,
    changes: 0,
    deliveries: 0,
    failed: candidates.length - ok.length,
    stopped: null,
  }
  if (ok.length === 0) return result
  const now = deps.clock.now()
  await deps.sql.begin(async (t) => {
    const tx = t as unknown as Sql
    const current = await lockBaselines(
      tx,
      ok.map((f) => f.candidate.org_number),
    )
    const changes: NewChange[] = []
    const observations: Observation[] = []
    for (const f of ok) {
      const org = f.candidate.org_number
      const before = current.get(org)
      observations.push({ org_number: org, ...f.status, org_form: f.orgForm })
      if (!before) {
        result.baselined++
        continue
      }
      const differing = FIELDS.filter((field) => before[field] !== f.status[field])
      if (differing.length === 0) continue
      result.changed++
      const snapshotId = await archiveAnswer(tx, f.raw, `regnskap:${org}`, org, true)
      for (const field of differing)
        changes.push(accountsChange(org, field, before[field], f.status[field], now, snapshotId))
    }
    const appended = await appendChanges(tx, changes, now)
    result.changes = appended.appended.length
    result.deliveries = appended.deliveries
    await writeBaselines(tx, observations, now)
  })
  return result
}

function accountsChange(
  org: string,
  field: (typeof FIELDS)[number],
  before: boolean | number | null,
  after: boolean | number | null,
  now: Date,
  snapshotId: string,
): NewChange {
  return {
    source: CHANGE_SOURCE.register,
    entity_type: 'annual_accounts',
    entity_id: org,
    change_type: 'updated',
    field_path: `/${field}`,
    before_value: before,
    after_value: after,
    diff: [{ op: 'replace', path: `/${field}`, value: after }],
    detected_at: now,
    source_snapshot_id: snapshotId,
    event_type: ACCOUNTS_EVENT,
  }
}

/** The organisation form from the cached register answer, when there is one that reads. */
function orgFormOf(c: DiffCandidate): string | null {
  if (c.unit_body === null) return null
  try {
    const u = mapUnit(
      {
        system: 'enhetsregisteret',
        url: '',
        status: 200,
        contentType: 'application/json',
        body: c.unit_body,
        fetchedAt: new Date(0),
      },
      c.org_number,
    )
    return u.kind === 'found' ? u.unit.org_form.code : null
  } catch {
    return null
  }
}
