/**
 * Every five minutes: read Enhetsregisteret's update feeds (units, then sub-units, each with its own
 * cursor) from where the last run stopped and make the cached answers of every changed unit or
 * sub-unit stale at once (they are fetched again on the next
 * read), purging every copy of a unit the register removed (`Fjernet`). Idempotent: several
 * instances may run it; the cursor only moves forward.
 *
 * Each page read is archived and each unit update appended to the change archive as `company` changes
 * (domain/changes/register-feed.ts). A new or changed unit the accounts diff covers has its
 * filing status observed at once (with `accounts`), so a filing that the register reports reaches
 * subscribers within minutes rather than at the next daily diff.
 */
import { observeAccounts } from '../src/domain/changes/accounts-diff.ts'
import { recordFeedChanges } from '../src/domain/changes/register-feed.ts'
import type { Clock } from '../src/lib/clock.ts'
import type { Logger } from '../src/lib/log.ts'
import { diffCandidatesFor } from '../src/store/accounts-baseline.ts'
import type { Sql } from '../src/store/db.ts'
import { archiveAnswer, invalidateOrganisations, purgeOrganisation, readFeedCursor, writeFeedCursor } from '../src/store/upstream-cache.ts'
import type { AccountsRegister } from '../src/upstream/accounts-register/port.ts'
import { mapUpdates } from '../src/upstream/business-register/map.ts'
import type { BusinessRegister } from '../src/upstream/business-register/port.ts'

export const UNIT_FEED = 'enhetsregisteret:enheter'
/** the sub-units' feed: ids of its own, so a cursor of its own */
export const SUB_UNIT_FEED = 'enhetsregisteret:underenheter'
const PAGE = 500
/** pages per run: a backlog is worked off over several runs rather than in one long one */
const MAX_PAGES = 20
/** where a first run starts reading */
const FIRST_RUN_LOOKBACK_MS = 10 * 60_000

type Deps = { sql: Sql; clock: Clock; logger: Logger; register: BusinessRegister; accounts?: AccountsRegister }

export async function runRegisterUpdates(deps: Deps) {
  const units = await runFeed(deps, 'units')
  // Sub-units are cached as units are (domain/sources.ts): their feed makes their answers stale the
  // same way. A sub-unit is not a company, so its updates are not company changes in the archive.
  const subUnits = await runFeed(deps, 'sub-units')
  if (units.read > 0) deps.logger.info('register update feed', units)
  if (subUnits.read > 0) deps.logger.info('register update feed (sub-units)', subUnits)
  return { ...units, sub_units: subUnits }
}

async function runFeed(deps: Deps, which: 'units' | 'sub-units') {
  const subUnits = which === 'sub-units'
  const feed = subUnits ? SUB_UNIT_FEED : UNIT_FEED
  let cursor = await readFeedCursor(deps.sql, feed)
  let invalidated = 0
  let purged = 0
  let read = 0
  let recorded = 0
  let accountsChanges = 0
  for (let page = 0; page < MAX_PAGES; page++) {
    const since = new Date(deps.clock.now().getTime() - FIRST_RUN_LOOKBACK_MS)
    const raw = subUnits
      ? cursor === null ? await deps.register.subUnitUpdatesSince(since, PAGE) : await deps.register.subUnitUpdates(cursor, PAGE)
      : cursor === null ? await deps.register.updatesSince(since, PAGE) : await deps.register.updates(cursor, PAGE)
    const updates = mapUpdates(raw, subUnits)
    read += updates.length
    if (updates.length === 0) break
    const snapshotId = await archiveAnswer(deps.sql, raw, `oppdateringer:${subUnits ? 'underenheter' : 'enheter'}:${cursor ?? since.toISOString()}`, null, false)
    if (!subUnits) {
      recorded += await recordFeedChanges(deps.sql, updates, snapshotId, deps.clock.now())
      if (deps.accounts) {
        const changed = [...new Set(updates.filter((u) => u.change === 'Endring' || u.change === 'Ny').map((u) => u.org_number))]
        const candidates = await diffCandidatesFor(deps.sql, changed)
        if (candidates.length > 0) accountsChanges += (await observeAccounts({ ...deps, accounts: deps.accounts }, candidates)).changes
      }
    }
    for (const u of updates.filter((x) => x.change === 'Fjernet')) purged += (await purgeOrganisation(deps.sql, u.org_number)) >= 0 ? 1 : 0
    invalidated += await invalidateOrganisations(deps.sql, [...new Set(updates.filter((x) => x.change !== 'Fjernet').map((x) => x.org_number))])
    cursor = Math.max(...updates.map((u) => u.id)) + 1
    await writeFeedCursor(deps.sql, feed, cursor, deps.clock.now())
    if (updates.length < PAGE) break
  }
  return { read, invalidated, purged, changes: recorded, accounts_changes: accountsChanges, next_id: cursor }
}
