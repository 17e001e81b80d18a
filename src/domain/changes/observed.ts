/**
 * The change archive's other sources (spec: "every detected upstream change from the business
 * register, the filing portal, the digital agency, the central bank, the labour register and the
 * tax authority"): values the service already reads in the course of its work, archived when they
 * differ from the value last observed.
 *
 * Each observation names a baseline key (source, entity_type, entity_id, field_path) and a value.
 * Its first observation writes the baseline only — a baseline, not a change, as the accounts diff
 * does (spec: Events). A later observation equal to the baseline writes nothing at all: the check
 * is one read without a lock, so reading the same value again costs no write. A differing one is
 * decided again in a transaction that holds the baseline row, and archived there through the one
 * append path (`appendChanges`: the advisory lock, so `seq` is commit order) with the baseline
 * moved on: two observers of one change archive it once.
 *
 * The rows carry no webhook event (`event_type` null): `accounts.updated` is the only event in v1
 * and a subscription's filter can only name its rows, so these are read from GET /api/v1/changes.
 * They carry no personal data. Values a consumer reads only under a delegation (Tier 2: the
 * employee count, the filings at the portal) are not shown in the row — it says that the value
 * changed; the delegated consumer reads the value itself. What each source records:
 *
 * | source | entity_type | entity_id | field_path | values |
 * |---|---|---|---|---|
 * | `tax_authority` | `vat_registration` | org | `/mva_registered` | booleans, from a unit read live from the business register (which publishes the VAT register's membership) |
 * | `centralbank` | `exchange_rate` | currency (NOK per one unit) | `/rate` | the series' latest rate before and after; `diff` also gives the new `/date` |
 * | `labour_register` | `employees` | org | `/employee_count` | withheld (Tier 2) |
 * | `portal` | `filings` | org | `/filings` | withheld (Tier 2) |
 * | `directorate` | `delegation` | org | `/status` | `pending` → `active`, `rejected` or `expired` (delegation/fullmakt.ts appends it when recording the agency's answer; the grant row is its baseline) |
 */
import type { Logger } from '../../lib/log.ts'
import {
  baselineKey,
  claimBaselines,
  lockBaselines,
  readBaselines,
  writeBaselines,
  type BaselineKey,
} from '../../store/change-baselines.ts'
import { appendChanges, type JsonValue, type NewChange } from '../../store/changes.ts'
import type { Sql } from '../../store/db.ts'
import type { RegisterUnit } from '../../upstream/business-register/map.ts'
import type { RateObservation } from '../../upstream/central-bank/map.ts'
import type { PortalInstance } from '../../upstream/filing-portal/port.ts'
import { CHANGE_SOURCE, type ChangeSource, type EntityType } from './vocabulary.ts'

/** What a change row says beyond its key: built from the baseline and the new value. */
interface Shown {
  change_type: NewChange['change_type']
  before_value: JsonValue
  after_value: JsonValue
  diff: NewChange['diff']
}

export interface Observation extends BaselineKey {
  source: ChangeSource
  entity_type: EntityType
  /** what was observed; kept as the baseline */
  value: unknown
  source_snapshot_id: string | null
  /** the row for `before` → `value`; null when `value` does not replace `before` (an older reading) */
  row(before: unknown): Shown | null
}

/** JSON with object keys sorted, so values read back from jsonb compare equal to fresh ones. */
function canonical(v: unknown): string {
  if (Array.isArray(v)) return `[${v.map(canonical).join(',')}]`
  if (v !== null && typeof v === 'object') {
    const o = v as Record<string, unknown>
    return `{${Object.keys(o)
      .sort()
      .map((k) => `${JSON.stringify(k)}:${canonical(o[k])}`)
      .join(',')}}`
  }
  return JSON.stringify(v)
}

const differs = (before: unknown, o: Observation) => canonical(before) !== canonical(o.value) && o.row(before) !== null

export interface Recorded {
  /** keys observed for the first time: their baseline written, nothing archived */
  baselined: number
  /** change rows appended */
  changes: number
}

/** Records the observations; see the file's comment. */
export async function recordObservations(sql: Sql, observations: readonly Observation[], now: Date): Promise<Recorded> {
  // One observation per key (the last), in one order, so concurrent recorders lock rows alike.
  const byKey = new Map(observations.map((o) => [baselineKey(o), o]))
  const known = await readBaselines(sql, [...byKey.values()])
  const candidates = [...byKey.entries()]
    .filter(([k, o]) => !known.has(k) || differs(known.get(k), o))
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([, o]) => o)
  if (candidates.length === 0) return { baselined: 0, changes: 0 }
  return sql.begin(async (t) => {
    const tx = t as unknown as Sql
    const claimed = await claimBaselines(tx, candidates, now)
    const rest = candidates.filter((o) => !claimed.has(baselineKey(o)))
    const held = await lockBaselines(tx, rest)
    const changes: NewChange[] = []
    const moved: Observation[] = []
    for (const o of rest) {
      const k = baselineKey(o)
      if (!held.has(k)) continue
      const before = held.get(k)
      if (!differs(before, o)) continue
      moved.push(o)
      changes.push({
        source: o.source,
        entity_type: o.entity_type,
        entity_id: o.entity_id,
        field_path: o.field_path,
        ...o.row(before)!,
        detected_at: now,
        source_snapshot_id: o.source_snapshot_id,
        event_type: null,
      })
    }
    const appended = await appendChanges(tx, changes, now)
    await writeBaselines(tx, moved, now)
    return { baselined: claimed.size, changes: appended.appended.length }
  })
}

/**
 * Records observations made on a read that must not fail because of them (a request, a cache
 * fill): a failure is logged and the read goes on; the next observation compares again.
 */
export async function recordQuietly(
  d: { sql: Sql; logger: Logger },
  observations: readonly Observation[],
  now: Date,
): Promise<void> {
  if (observations.length === 0) return
  try {
    await recordObservations(d.sql, observations, now)
  } catch (e) {
    d.logger.warn('change archive: an observation was not recorded; the next one compares again', {
      sources: [...new Set(observations.map((o) => o.source))],
      error: e instanceof Error ? e.message : String(e),
    })
  }
}

const replaced = (path: string, before: JsonValue, after: JsonValue): Shown => ({
  change_type: 'updated',
  before_value: before,
  after_value: after,
  diff: [{ op: 'replace', path, value: after }],
})

/** A Tier 2 value's row: that it changed, not what it is (see the file's comment). */
const withheld = (path: string): Shown => ({
  change_type: 'updated',
  before_value: null,
  after_value: null,
  diff: [{ op: 'replace', path }],
})

/** VAT-register membership, from a unit the business register answered (none while the register does not say). */
export function vatObservation(unit: RegisterUnit, snapshotId: string | null): Observation[] {
  if (unit.status !== 'active' || unit.vat_registered === null) return []
  return [
    {
      source: CHANGE_SOURCE.tax_authority,
      entity_type: 'vat_registration',
      entity_id: unit.org_number,
      field_path: '/mva_registered',
      value: unit.vat_registered,
      source_snapshot_id: snapshotId,
      row: (before) => replaced('/mva_registered', before as boolean, unit.vat_registered),
    },
  ]
}

/**
 * An exchange-rate series' latest value, from a window that ends today (or later): its last
 * observation is the series' newest. A reading older than the baseline's date changes nothing.
 */
export function rateObservation(
  currency: string,
  observations: readonly RateObservation[],
  snapshotId: string | null,
): Observation[] {
  const latest = observations.reduce<RateObservation | null>((a, o) => (a === null || o.date > a.date ? o : a), null)
  if (latest === null) return []
  const value = { date: latest.date, rate: latest.rate }
  return [
    {
      source: CHANGE_SOURCE.centralbank,
      entity_type: 'exchange_rate',
      entity_id: currency,
      field_path: '/rate',
      value,
      source_snapshot_id: snapshotId,
      row: (before) => {
        const b = before as { date: string; rate: number }
        if (latest.date < b.date) return null
        return {
          change_type: 'updated',
          before_value: b.rate,
          after_value: latest.rate,
          diff: [
            { op: 'replace', path: '/rate', value: latest.rate },
            { op: 'replace', path: '/date', value: latest.date },
          ],
        }
      },
    },
  ]
}

/** A company's employee count as the labour register answered its delegated consumer. */
export function employeeObservation(org: string, count: number): Observation[] {
  return [
    {
      source: CHANGE_SOURCE.labour_register,
      entity_type: 'employees',
      entity_id: org,
      field_path: '/employee_count',
      value: count,
      source_snapshot_id: null,
      row: () => withheld('/employee_count'),
    },
  ]
}

/**
 * The status of each of an organisation's filings at the portal (`submitted` once its process
 * ended by `now`, else `in_progress`), as one value: a filing appearing or moving on changes it.
 */
export function portalObservation(org: string, instances: readonly PortalInstance[], now: Date): Observation[] {
  const value: Record<string, string> = {}
  for (const i of instances)
    value[i.id] = i.process.ended !== null && new Date(i.process.ended) <= now ? 'submitted' : 'in_progress'
  return [
    {
      source: CHANGE_SOURCE.portal,
      entity_type: 'filings',
      entity_id: org,
      field_path: '/filings',
      value,
      source_snapshot_id: null,
      row: () => withheld('/filings'),
    },
  ]
}

/**
 * A delegation request the digital agency decided: appended by the caller in the transaction that
 * records the answer, so the grant's recorded status is the baseline (a request the service made
 * itself, `pending`, is not a change). The agency's request id makes it once-only.
 */
export function delegationDecided(
  org: string,
  requestId: string,
  status: 'active' | 'rejected' | 'expired',
  now: Date,
): NewChange {
  return {
    source: CHANGE_SOURCE.directorate,
    entity_type: 'delegation',
    entity_id: org,
    field_path: '/status',
    ...replaced('/status', 'pending', status),
    detected_at: now,
    source_snapshot_id: null,
    source_ref: `digital-agency:request:${requestId}:${status}`,
    event_type: null,
  }
}
