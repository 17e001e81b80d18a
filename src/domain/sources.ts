/**
 * Reads from the open registers and the central bank through the cache (README.md, Freshness). A fresh cached answer is served
 * without an upstream call; otherwise the upstream is asked, its answer archived (the archive id is
 * `_meta.source_snapshot_id`) and cached. When the upstream fails or answers something unreadable, a
 * cached answer younger than the stale limit is served with `stale: true`; older than that, the failure is the answer. A 410 from
 * the register purges every cached copy of the unit. Concurrent reads of one resource in this
 * process share one upstream call.
 *
 * The register's "no such unit" (404, or 410 removed) is cached but not archived: it backs no answer
 * (COMPANY_NOT_FOUND and a bulk-status `not_found` row cite no snapshot), and archiving it would let
 * anyone grow the append-only archive by a row per unknown number asked about — keyless bulk status
 * takes 100 at a time.
 */
import { AppError } from '../errors/app-error.ts'
import type { Clock } from '../lib/clock.ts'
import type { Logger } from '../lib/log.ts'
import type { Sql } from '../store/db.ts'
import {
  archiveAnswer,
  cacheId,
  cacheUnarchived,
  purgeOrganisation,
  readCached,
  readCachedMany,
  type CachedAnswer,
} from '../store/upstream-cache.ts'
import { BatchedLookup } from '../lib/batched-lookup.ts'
import type { AccountsRegister } from '../upstream/accounts-register/port.ts'
import { mapAccounts, type AccountsLookup } from '../upstream/accounts-register/map.ts'
import type { BusinessRegister } from '../upstream/business-register/port.ts'
import {
  mapAuthority,
  mapRoles,
  mapSearch,
  mapSubUnit,
  mapUnit,
  type AuthorityLookup,
  type RolesLookup,
  type SearchPage,
  type SubUnitLookup,
  type UnitLookup,
} from '../upstream/business-register/map.ts'
import { MalformedUpstream, SYSTEM_NAMES, type RawResponse, type UpstreamSystem } from '../upstream/raw.ts'
import type { CentralBankClient } from '../upstream/central-bank/live.ts'
import { observationsOf, type RateObservation } from '../upstream/central-bank/map.ts'
import type { LocalDate } from '../lib/local-date.ts'
import { rateObservation, recordQuietly, vatObservation, type Observation } from './changes/observed.ts'

const MINUTE = 60_000
const HOUR = 60 * MINUTE

/**
 * How long an answer is served from the cache without asking (`fresh`), and how old a cached
 * answer may be when the upstream is down and it is served anyway with `stale: true` (`staleLimit`).
 * "Not found" answers are fresh for a short time only, so a newly registered unit appears soon.
 */
export const FRESHNESS = {
  unit: { fresh: HOUR, staleLimit: 72 * HOUR },
  roles: { fresh: HOUR, staleLimit: 72 * HOUR },
  signature: { fresh: HOUR, staleLimit: 72 * HOUR },
  accounts: { fresh: 24 * HOUR, staleLimit: 30 * 24 * HOUR },
  search: { fresh: 15 * MINUTE, staleLimit: 24 * HOUR },
  /** a window ending before today never changes; one ending today may gain today's rate at 16:00 */
  rates: { fresh: 15 * MINUTE, staleLimit: 7 * 24 * HOUR },
  ratesPast: { fresh: 30 * 24 * HOUR, staleLimit: 365 * 24 * HOUR },
  notFound: { fresh: 10 * MINUTE },
} as const

type Kind = Exclude<keyof typeof FRESHNESS, 'notFound'>

/** Where an answer came from, for `_meta`. */
export interface Provenance {
  system: UpstreamSystem
  /** the archived answer; null for a "not found" answer, which is cached but not archived */
  snapshotId: string | null
  fetchedAt: Date
  servedFrom: 'cache' | 'live'
  stale: boolean
}

export interface Sourced<T> {
  value: T
  source: Provenance
}

export interface SourceDeps {
  sql: Sql
  clock: Clock
  logger: Logger
  /** counts how reads were served (cache, live, stale) */
  metrics?: { cacheRead(system: string, served: 'cache' | 'live' | 'stale'): void }
  register: BusinessRegister
  accounts: AccountsRegister
  centralBank: CentralBankClient
}

/** The catalogued error for an upstream that failed or answered garbage. */
export function upstreamError(system: UpstreamSystem, e: unknown, org: string | null = null): AppError {
  const context = { upstream_system: SYSTEM_NAMES[system], ...(org ? { org_number: org } : {}) }
  const extra = { upstream_system: SYSTEM_NAMES[system] }
  if (e instanceof MalformedUpstream) {
    return new AppError(system === 'enhetsregisteret' ? 'COMPANY_LOOKUP_FAILED' : 'GOVERNMENT_API_ERROR', {
      context,
      extra: { ...extra, reason: 'unreadable answer' },
      cause: e,
    })
  }
  if (e instanceof AppError) {
    // The register's outage has its own code (REGISTER_DOWN); the breaker's Retry-After carries over.
    if (system === 'enhetsregisteret' && (e.code === 'UPSTREAM_UNAVAILABLE' || e.code === 'UPSTREAM_TIMEOUT')) {
      return new AppError('REGISTER_DOWN', {
        context,
        extra,
        ...(e.options.headers ? { headers: e.options.headers } : {}),
        cause: e,
      })
    }
    return e
  }
  return new AppError('UPSTREAM_UNAVAILABLE', { context, extra, cause: e })
}

/**
 * The register reads the company domain needs. Production passes UpstreamReads; the sandbox its
 * own adapter over synthetic companies — the domain code is the same (ARCHITECTURE.md, the sandbox).
 */
export type CompanyReads = Pick<
  UpstreamReads,
  'unit' | 'subUnit' | 'roles' | 'signature' | 'prokura' | 'accounts' | 'search'
>

/** The reads that say which legal entity an organisation number stands for (domain/company/register.ts `resolveOrg`). */
export type UnitReads = Pick<CompanyReads, 'unit' | 'subUnit'>

/**
 * A resource the cache holds no usable answer for, asked of `UpstreamReads.cachedOnly()`: its
 * answer is being fetched in the background, not by this read.
 */
export class NotCached extends Error {
  override name = 'NotCached'
  constructor(readonly key: string) {
    super(`not cached: ${key}`)
  }
}

/**
 * Read-only from now on, all the way down: a mapped answer is shared by every request that reads
 * the same cached answer, and a caller that changed it would change it for the others. Such a
 * caller fails loudly (a TypeError in strict mode) instead.
 */
function deepFreeze<T>(value: T): T {
  if (value !== null && typeof value === 'object' && !Object.isFrozen(value)) {
    Object.freeze(value)
    for (const v of Object.values(value)) deepFreeze(v)
  }
  return value
}

/** How many mapped answers an instance keeps (UpstreamReads.mapped); oldest out first. */
const MAPPED_MAX = 5000

export class UpstreamReads {
  private readonly inflight = new Map<string, Promise<{ raw: RawResponse; snapshotId: string | null }>>()

  /**
   * The last cached answer of each resource this instance mapped, and what it mapped to. The cache
   * row is still read on every call (it may have changed in another instance); only parsing and
   * mapping an answer already mapped is skipped. An answer is known by its snapshot and fetch time;
   * a key names one resource of one kind, read with one mapping (unit, roles, accounts…).
   */
  private readonly mapped = new Map<string, { snapshotId: string | null; fetchedAt: number; value: unknown }>()

  /** concurrent requests' cache reads, one statement per batch */
  private readonly cacheReads: BatchedLookup<{ system: UpstreamSystem; key: string; held: string | null }, CachedAnswer>

  constructor(private readonly deps: SourceDeps) {
    this.cacheReads = new BatchedLookup(
      (wanted) => readCachedMany(deps.sql, wanted),
      (w) => cacheId(w.system, w.key),
    )
  }

  /** A unit answered live tells its VAT-register membership to the change archive (domain/changes/observed.ts). */
  unit(org: string): Promise<Sourced<UnitLookup>> {
    return this.read(
      'enhetsregisteret',
      'unit',
      `enhet:${org}`,
      org,
      () => this.deps.register.unit(org),
      (raw) => mapUnit(raw, org),
      (u) => u.kind === 'found',
      (u, snapshotId) => (u.kind === 'found' ? vatObservation(u.unit, snapshotId) : []),
    )
  }

  /**
   * A sub-unit, read and cached as a unit is (same freshness, "not found" cached briefly and not
   * archived, 410 purges); its own key, since a number is a unit or a sub-unit, never both.
   */
  subUnit(org: string): Promise<Sourced<SubUnitLookup>> {
    return this.read(
      'enhetsregisteret',
      'unit',
      `underenhet:${org}`,
      org,
      () => this.deps.register.subUnit(org),
      (raw) => mapSubUnit(raw, org),
      (u) => u.kind === 'found',
    )
  }

  /**
   * The unit and sub-unit reads from the cache alone, never the register: for a read over many
   * companies at once (a portfolio's deadlines), which must not become a burst of upstream calls;
   * what it lacks is fetched in the background (domain/portfolios/warmup.ts). A cached answer is
   * served up to its stale limit (a "not found", up to the unit's), marked `stale` once it is older
   * than its freshness; a resource with nothing usable cached throws `NotCached`.
   */
  cachedOnly(): UnitReads {
    return {
      unit: (org) =>
        this.read(
          'enhetsregisteret',
          'unit',
          `enhet:${org}`,
          org,
          () => Promise.reject(new NotCached(`enhet:${org}`)),
          (raw) => mapUnit(raw, org),
          undefined,
          undefined,
          true,
        ),
      subUnit: (org) =>
        this.read(
          'enhetsregisteret',
          'unit',
          `underenhet:${org}`,
          org,
          () => Promise.reject(new NotCached(`underenhet:${org}`)),
          (raw) => mapSubUnit(raw, org),
          undefined,
          undefined,
          true,
        ),
    }
  }

  roles(org: string): Promise<Sourced<RolesLookup>> {
    return this.read('enhetsregisteret', 'roles', `roller:${org}`, org, () => this.deps.register.roles(org), mapRoles)
  }

  signature(org: string): Promise<Sourced<AuthorityLookup>> {
    return this.read(
      'fullmakt',
      'signature',
      `signatur:${org}`,
      org,
      () => this.deps.register.signature(org),
      mapAuthority,
    )
  }

  prokura(org: string): Promise<Sourced<AuthorityLookup>> {
    return this.read(
      'fullmakt',
      'signature',
      `prokura:${org}`,
      org,
      () => this.deps.register.prokura(org),
      mapAuthority,
    )
  }

  accounts(org: string): Promise<Sourced<AccountsLookup>> {
    return this.read(
      'regnskapsregisteret',
      'accounts',
      `regnskap:${org}`,
      org,
      () => this.deps.accounts.accounts(org),
      mapAccounts,
    )
  }

  search(name: string, size: number): Promise<Sourced<SearchPage>> {
    return this.read(
      'enhetsregisteret',
      'search',
      `search:${size}:${name.toLowerCase()}`,
      null,
      () => this.deps.register.search(name, size),
      mapSearch,
    )
  }

  /**
   * Norges Bank's observations of one currency in a window (empty when there are none). A window
   * that ends today, answered live, tells the series' newest value to the change archive.
   */
  async exchangeRates(
    currency: string,
    from: LocalDate,
    to: LocalDate,
    today: LocalDate,
  ): Promise<Sourced<RateObservation[]>> {
    const past = to < today
    return this.read(
      'norges-bank',
      past ? 'ratesPast' : 'rates',
      `exr:${currency}:${from}:${to}`,
      null,
      () => this.deps.centralBank.exchangeRates([currency], from, to),
      (raw) => observationsOf(raw, currency),
      undefined,
      past ? undefined : (obs, snapshotId) => rateObservation(currency, obs, snapshotId),
    )
  }

  private async read<T>(
    system: UpstreamSystem,
    kind: Kind,
    key: string,
    org: string | null,
    fetch: () => Promise<RawResponse>,
    map: (raw: RawResponse) => T,
    /** whether an answer is archived (default: every answer); one that is not is still cached */
    archived: (value: T) => boolean = () => true,
    /** what a live answer tells the change archive */
    observe?: (value: T, snapshotId: string | null) => Observation[],
    /** answer from the cache alone (`cachedOnly`) */
    cacheOnly = false,
  ): Promise<Sourced<T>> {
    const now = this.deps.clock.now().getTime()
    const cached = await this.readCache(system, key)
    let cachedValue: T | undefined
    if (cached) {
      try {
        cachedValue = this.mapCached(key, cached, map)
      } catch {
        cachedValue = undefined // a row we can no longer read is as good as none
      }
      const fresh = cached.raw.status === 200 ? FRESHNESS[kind].fresh : FRESHNESS.notFound.fresh
      const age = now - cached.raw.fetchedAt.getTime()
      if (cacheOnly && cachedValue !== undefined && age < FRESHNESS[kind].staleLimit) {
        this.deps.metrics?.cacheRead(system, age < fresh ? 'cache' : 'stale')
        return {
          value: cachedValue,
          source: {
            system,
            snapshotId: cached.snapshotId,
            fetchedAt: cached.raw.fetchedAt,
            servedFrom: 'cache',
            stale: age >= fresh,
          },
        }
      }
      if (cachedValue !== undefined && now - cached.raw.fetchedAt.getTime() < fresh) {
        this.deps.metrics?.cacheRead(system, 'cache')
        return {
          value: cachedValue,
          source: {
            system,
            snapshotId: cached.snapshotId,
            fetchedAt: cached.raw.fetchedAt,
            servedFrom: 'cache',
            stale: false,
          },
        }
      }
    }
    if (cacheOnly) throw new NotCached(key)
    try {
      const { raw, snapshotId } = await this.fetchOnce(key, org, fetch, map, archived, observe)
      this.deps.metrics?.cacheRead(system, 'live')
      return {
        value: map(raw),
        source: { system, snapshotId, fetchedAt: raw.fetchedAt, servedFrom: 'live', stale: false },
      }
    } catch (e) {
      if (e instanceof AppError && !isTransient(e)) throw e
      if (cached && cachedValue !== undefined && now - cached.raw.fetchedAt.getTime() < FRESHNESS[kind].staleLimit) {
        this.deps.logger.warn('upstream failed; serving a stale cached answer', {
          system,
          key,
          error: e instanceof Error ? e.message : String(e),
        })
        this.deps.metrics?.cacheRead(system, 'stale')
        return {
          value: cachedValue,
          source: {
            system,
            snapshotId: cached.snapshotId,
            fetchedAt: cached.raw.fetchedAt,
            servedFrom: 'cache',
            stale: true,
          },
        }
      }
      throw upstreamError(system, e, org)
    }
  }

  /** The cache row, without the body when this instance has mapped its snapshot already. */
  private async readCache(
    system: UpstreamSystem,
    key: string,
  ): Promise<Pick<CachedAnswer, 'raw' | 'snapshotId'> | null> {
    const held = this.mapped.get(key)?.snapshotId ?? null
    const cached = (await this.cacheReads.get({ system, key, held })) ?? null
    // Left out for a snapshot this instance no longer holds (replaced or pushed out meanwhile): read whole.
    if (cached?.bodyOmitted && this.mapped.get(key)?.snapshotId !== cached.snapshotId)
      return readCached(this.deps.sql, system, key)
    return cached
  }

  private mapCached<T>(key: string, cached: Pick<CachedAnswer, 'raw' | 'snapshotId'>, map: (raw: RawResponse) => T): T {
    const fetchedAt = cached.raw.fetchedAt.getTime()
    const known = this.mapped.get(key)
    if (known && known.snapshotId === cached.snapshotId && known.fetchedAt === fetchedAt) return known.value as T
    const value = deepFreeze(map(cached.raw))
    if (known) this.mapped.delete(key)
    else if (this.mapped.size >= MAPPED_MAX) this.mapped.delete(this.mapped.keys().next().value!)
    this.mapped.set(key, { snapshotId: cached.snapshotId, fetchedAt, value })
    return value
  }

  /** One upstream call per resource at a time; its answer is archived (and cached) before anyone uses it. */
  private fetchOnce<T>(
    key: string,
    org: string | null,
    fetch: () => Promise<RawResponse>,
    map: (raw: RawResponse) => T,
    archived: (value: T) => boolean,
    observe?: (value: T, snapshotId: string | null) => Observation[],
  ) {
    const running = this.inflight.get(key)
    if (running) return running
    const p = (async () => {
      const raw = await fetch()
      const value = map(raw) // garbage throws here: it is never archived as an answer, nor cached
      if (org && raw.status === 410) await purgeOrganisation(this.deps.sql, org)
      if (!archived(value)) {
        await cacheUnarchived(this.deps.sql, raw, key, org)
        return { raw, snapshotId: null }
      }
      const snapshotId = await archiveAnswer(this.deps.sql, raw, key, org, true)
      // Once per upstream answer (concurrent readers share this call); a failure is only logged.
      if (observe) await recordQuietly(this.deps, observe(value, snapshotId), this.deps.clock.now())
      return { raw, snapshotId }
    })().finally(() => this.inflight.delete(key))
    this.inflight.set(key, p)
    return p
  }
}

/**
 * A read whose failure must not fail the whole answer (a degraded section, an unknown signal):
 * its value, with its provenance recorded in `used`, or the catalogued error it failed with.
 */
export async function attempt<T>(read: () => Promise<Sourced<T>>, used: Provenance[]): Promise<T | AppError> {
  try {
    const r = await read()
    used.push(r.source)
    return r.value
  } catch (e) {
    if (e instanceof AppError) return e
    throw e
  }
}

/** Upstream trouble worth falling back to the cache for; anything else is the caller's answer. */
function isTransient(e: AppError): boolean {
  return e.code === 'UPSTREAM_UNAVAILABLE' || e.code === 'UPSTREAM_TIMEOUT' || e.code === 'GOVERNMENT_RATE_LIMITED'
}
