/**
 * Agent principals, delegations, delegation receipts, conflict locks and recorded filings
 * (sql/0015_delegation.sql). The database enforces the state machines; these statements are
 * written so that a lost race changes nothing (conditional updates, unique indexes) rather than
 * relying on the order of calls.
 */
import type { Sql } from './db.ts'

export type PrincipalState = 'pending' | 'active' | 'revoked'

export interface PrincipalRow {
  consumer_id: string
  id: string
  org_number: string
  state: PrincipalState
  system_user_id: string | null
  created_at: Date
  updated_at: Date
  revoked_at: Date | null
  revoke_reason: string | null
}

export type DelegationStatus = 'requesting' | 'pending' | 'active' | 'rejected' | 'expired' | 'revoked'

export interface DelegationRow {
  id: string
  kind: 'grant' | 'revocation'
  consumer_id: string
  principal_id: string
  org_number: string
  scopes: string[]
  external_ref: string | null
  status: DelegationStatus
  request_id: string | null
  delegation_url: string | null
  system_user_id: string | null
  supersedes: string | null
  reason: string | null
  created_at: Date
  updated_at: Date
  activated_at: Date | null
  /** grants only: whether a revocation marker supersedes it */
  revoked: boolean
}

const PRINCIPAL_COLUMNS =
  'consumer_id, id, org_number, state, system_user_id, created_at, updated_at, revoked_at, revoke_reason'

export async function findPrincipal(sql: Sql, consumerId: string, id: string): Promise<PrincipalRow | null> {
  const [row] = await sql<
    PrincipalRow[]
  >`select ${sql.unsafe(PRINCIPAL_COLUMNS)} from agent_principals where consumer_id = ${consumerId} and id = ${id}`
  return row ?? null
}

/** The principal, created pending for this organisation if it did not exist (race-safe). */
export async function ensurePrincipal(
  sql: Sql,
  consumerId: string,
  id: string,
  orgNumber: string,
  now: Date,
): Promise<PrincipalRow> {
  await sql`
    insert into agent_principals (consumer_id, id, org_number, state, created_at, updated_at)
    values (${consumerId}, ${id}, ${orgNumber}, 'pending', ${now}, ${now})
    on conflict (consumer_id, id) do nothing`
  return (await findPrincipal(sql, consumerId, id))!
}

/**
 * pending → active, unless a revocation has started meanwhile (its marker rows come first): the
 * principal then stays as the revocation leaves it. True when this call activated it.
 */
export async function activatePrincipal(sql: Sql, consumerId: string, id: string, now: Date): Promise<boolean> {
  const rows = await sql`
    update agent_principals set state = 'active', updated_at = ${now}
    where consumer_id = ${consumerId} and id = ${id} and state = 'pending'
      and not exists (select 1 from delegations r where r.kind = 'revocation' and r.consumer_id = ${consumerId} and r.principal_id = ${id})
    returning id`
  return rows.length === 1
}

/** Binds the system user once; a principal bound to another one keeps it (false). */
export async function bindSystemUser(
  sql: Sql,
  consumerId: string,
  id: string,
  systemUserId: string,
  now: Date,
): Promise<boolean> {
  const rows = await sql`
    update agent_principals set system_user_id = ${systemUserId}, updated_at = ${now}
    where consumer_id = ${consumerId} and id = ${id} and state <> 'revoked'
      and (system_user_id is null or system_user_id = ${systemUserId})
    returning id`
  return rows.length === 1
}

/** → revoked (terminal). False when it was revoked already. */
export async function revokePrincipalRow(
  sql: Sql,
  consumerId: string,
  id: string,
  reason: string,
  now: Date,
): Promise<boolean> {
  const rows = await sql`
    update agent_principals set state = 'revoked', revoked_at = ${now}, revoke_reason = ${reason}, updated_at = ${now}
    where consumer_id = ${consumerId} and id = ${id} and state <> 'revoked'
    returning id`
  return rows.length === 1
}

const DELEGATION_SELECT = `
  select d.id, d.kind, d.consumer_id, d.principal_id, d.org_number, d.scopes, d.external_ref, d.status, d.request_id,
         d.delegation_url, d.system_user_id, d.supersedes, d.reason, d.created_at, d.updated_at, d.activated_at,
         exists (select 1 from delegations r where r.kind = 'revocation' and r.supersedes = d.id) as revoked
  from delegations d`

export async function findDelegation(sql: Sql, id: string): Promise<DelegationRow | null> {
  const [row] = await sql<DelegationRow[]>`${sql.unsafe(DELEGATION_SELECT)} where d.id = ${id}`
  return row ?? null
}

/** The principal's grants, oldest first. */
export async function grantsOfPrincipal(sql: Sql, consumerId: string, principalId: string): Promise<DelegationRow[]> {
  return sql<
    DelegationRow[]
  >`${sql.unsafe(DELEGATION_SELECT)} where d.consumer_id = ${consumerId} and d.principal_id = ${principalId} and d.kind = 'grant' order by d.created_at, d.id`
}

/** Neither superseded by a revocation marker nor held by a revoked principal: a grant that can still count. */
const LIVE = `d.kind = 'grant'
  and not exists (select 1 from delegations r where r.kind = 'revocation' and r.supersedes = d.id)
  and exists (select 1 from agent_principals p where p.consumer_id = d.consumer_id and p.id = d.principal_id and p.state <> 'revoked')`

/** The consumer's live grants for the organisation, oldest first. */
export async function liveGrantsForOrg(sql: Sql, consumerId: string, orgNumber: string): Promise<DelegationRow[]> {
  return sql<DelegationRow[]>`
    ${sql.unsafe(DELEGATION_SELECT)}
    where d.consumer_id = ${consumerId} and d.org_number = ${orgNumber} and ${sql.unsafe(LIVE)}
    order by d.created_at, d.id`
}

/** How activeGrantPairs names a (consumer, organisation) pair in its answer. */
export const grantPairId = (p: { consumerId: string; orgNumber: string }) => `${p.consumerId}|${p.orgNumber}`

/** Which of these (consumer, organisation) pairs hold an active grant, by `grantPairId`, in one statement. */
export async function activeGrantPairs(
  sql: Sql,
  pairs: { consumerId: string; orgNumber: string }[],
): Promise<Set<string>> {
  const rows = await sql<{ consumer_id: string; org_number: string }[]>`
    select distinct d.consumer_id, d.org_number
    from unnest(${pairs.map((p) => p.consumerId)}::uuid[], ${pairs.map((p) => p.orgNumber)}::text[]) as w(consumer_id, org_number)
    join delegations d on d.consumer_id = w.consumer_id and d.org_number = w.org_number
    where d.status = 'active' and ${sql.unsafe(LIVE)}`
  return new Set(rows.map((r) => grantPairId({ consumerId: r.consumer_id, orgNumber: r.org_number })))
}

/**
 * The system user a consumer acts as for an organisation: its newest live, active grant bound to a
 * system user, covering `scope` when one is named. The token service finds that system user by the
 * grant's `external_ref` (upstream/token-service/port.ts).
 */
export async function actingSystemUser(
  sql: Sql,
  consumerId: string,
  orgNumber: string,
  scope: string | null,
): Promise<{ external_ref: string; system_user_id: string } | null> {
  const [row] = await sql<{ external_ref: string; system_user_id: string }[]>`
    select d.external_ref, d.system_user_id from delegations d
    where d.consumer_id = ${consumerId} and d.org_number = ${orgNumber} and d.status = 'active'
      and d.system_user_id is not null and d.external_ref is not null
      and (${scope}::text is null or ${scope}::text = any(d.scopes))
      and ${sql.unsafe(LIVE)}
    order by d.activated_at desc nulls last, d.created_at desc limit 1`
  return row ?? null
}

export interface NewGrant {
  id: string
  consumerId: string
  principalId: string
  orgNumber: string
  scopes: string[]
  now: Date
  /** a new grant is refused ('limit') while the consumer holds this many open ones for the organisation */
  maxOpen: number
}

/**
 * The principal's open grant (requesting, pending or active, not revoked), or a new one in state
 * `requesting`; null when the principal is revoked; 'limit' when a new grant would exceed the
 * consumer's open grants for the organisation (`maxOpen`). Serialised on the principal's row, so two
 * concurrent requests find one grant and a revocation that has begun sees every grant made before,
 * and on the (consumer, organisation) pair (a transaction-scoped advisory lock), so concurrent new
 * principals never count past the cap.
 */
export async function openGrant(sql: Sql, g: NewGrant): Promise<DelegationRow | null | 'limit'> {
  return sql.begin(async (tx) => {
    const [p] = await tx<
      { state: PrincipalState }[]
    >`select state from agent_principals where consumer_id = ${g.consumerId} and id = ${g.principalId} for update`
    if (!p || p.state === 'revoked') return null
    const [open] = await tx<DelegationRow[]>`
      ${tx.unsafe(DELEGATION_SELECT)}
      where d.consumer_id = ${g.consumerId} and d.principal_id = ${g.principalId} and d.kind = 'grant'
        and d.status in ('requesting', 'pending', 'active')
        and not exists (select 1 from delegations r where r.kind = 'revocation' and r.supersedes = d.id)
      order by d.created_at desc limit 1`
    if (open) return open
    await tx`select pg_advisory_xact_lock(hashtextextended(${`open-grants:${g.consumerId}:${g.orgNumber}`}, 0))`
    const [count] = await tx<{ n: number }[]>`
      select count(*)::int as n from delegations d
      where d.consumer_id = ${g.consumerId} and d.org_number = ${g.orgNumber} and d.status in ('requesting', 'pending') and ${tx.unsafe(LIVE)}`
    if (count!.n >= g.maxOpen) return 'limit'
    await tx`
      insert into delegations (id, kind, consumer_id, principal_id, org_number, scopes, external_ref, status, created_at, updated_at)
      values (${g.id}, 'grant', ${g.consumerId}, ${g.principalId}, ${g.orgNumber}, ${g.scopes}, ${g.id}, 'requesting', ${g.now}, ${g.now})`
    const [row] = await tx<DelegationRow[]>`${tx.unsafe(DELEGATION_SELECT)} where d.id = ${g.id}`
    return row!
  }) as Promise<DelegationRow | null | 'limit'>
}

/** What the agency answered, kept on the grant; nothing changes on a revoked one (false). */
export async function recordAgencyAnswer(
  sql: Sql,
  id: string,
  a: {
    requestId: string
    delegationUrl: string
    status: 'pending' | 'active' | 'rejected' | 'expired'
    systemUserId: string | null
  },
  now: Date,
): Promise<boolean> {
  const rows = await sql`
    update delegations set request_id = ${a.requestId}, delegation_url = ${a.delegationUrl}, status = ${a.status},
      system_user_id = coalesce(system_user_id, ${a.systemUserId}::uuid),
      activated_at = case when ${a.status} = 'active' then coalesce(activated_at, ${now}) else activated_at end,
      updated_at = ${now}
    where id = ${id} and kind = 'grant'
      and not exists (select 1 from delegations r where r.kind = 'revocation' and r.supersedes = delegations.id)
      and (status = ${a.status} or status = 'requesting' or (status = 'pending' and ${a.status} in ('active', 'rejected', 'expired')))
    returning id`
  return rows.length === 1
}

/**
 * Revocation markers for every grant of the principal that has none; the grants are frozen from
 * then on. Returns the grants this call superseded (none when another revoke got there first).
 */
export async function insertRevocations(
  sql: Sql,
  consumerId: string,
  principalId: string,
  reason: string,
  now: Date,
): Promise<DelegationRow[]> {
  return sql.begin(async (tx) => {
    await tx`select id from agent_principals where consumer_id = ${consumerId} and id = ${principalId} for update`
    const grants = await tx<DelegationRow[]>`
      ${tx.unsafe(DELEGATION_SELECT)}
      where d.consumer_id = ${consumerId} and d.principal_id = ${principalId} and d.kind = 'grant'
        and not exists (select 1 from delegations r where r.kind = 'revocation' and r.supersedes = d.id)
      order by d.created_at, d.id`
    for (const g of grants) {
      await tx`
        insert into delegations (id, kind, consumer_id, principal_id, org_number, scopes, status, supersedes, reason, created_at, updated_at)
        values (${crypto.randomUUID()}, 'revocation', ${consumerId}, ${principalId}, ${g.org_number}, ${g.scopes}, 'revoked', ${g.id}, ${reason}, ${now}, ${now})`
    }
    return grants
  }) as Promise<DelegationRow[]>
}

/** How often a pending grant is asked about: young ones (created within `youngMs`) more often. */
export interface AskCadence {
  youngMs: number
  youngEveryMs: number
  oldEveryMs: number
  /** a grant due within this much is asked now: a sweep's period never doubles the cadence */
  slackMs: number
}

/**
 * Claims up to `limit` pending grants that are due to be asked about at the agency, fairly: each
 * account's most overdue grant first (never asked before longest since asked), then each
 * account's second, and so on — round-robin, so one account's many unanswered requests never
 * keep another's from being seen. `onlyYoung` takes young grants only and treats one asked at
 * least `minGapMs` ago as due (a person just came back from the agency). Claiming moves the
 * grant's `next_at`, conditionally, so instances sweeping at once never ask the same grant twice.
 */
export async function claimDueGrants(
  sql: Sql,
  now: Date,
  limit: number,
  cadence: AskCadence,
  opts: { onlyYoung?: boolean; minGapMs?: number } = {},
): Promise<DelegationRow[]> {
  const youngSince = new Date(now.getTime() - cadence.youngMs)
  const gapBefore = new Date(now.getTime() - (opts.minGapMs ?? 0))
  const due = opts.onlyYoung
    ? sql`d.created_at > ${youngSince} and (a.asked_at is null or a.asked_at <= ${gapBefore})`
    : sql`(a.next_at is null or a.next_at <= ${new Date(now.getTime() + cadence.slackMs)})`
  const candidates = await sql<{ id: string; young: boolean; asked_at: Date | null; next_at: Date | null }[]>`
    select id, young, asked_at, next_at from (
      select d.id, d.created_at > ${youngSince} as young, a.asked_at, a.next_at, d.created_at,
             row_number() over (partition by d.consumer_id order by a.asked_at nulls first, d.created_at, d.id) as turn
      from delegations d left join delegation_asks a on a.delegation_id = d.id
      where d.status = 'pending' and ${sql.unsafe(LIVE)} and ${due}
    ) c
    order by turn, asked_at nulls first, created_at, id
    limit ${limit}`
  if (candidates.length === 0) return []
  const ids = candidates.map((c) => c.id)
  const nextAts = candidates.map((c) =>
    new Date(now.getTime() + (c.young ? cadence.youngEveryMs : cadence.oldEveryMs)).toISOString(),
  )
  const seen = candidates.map((c) => c.asked_at?.toISOString() ?? null)
  // A grant is this sweep's only if nobody asked about it since the candidates were read.
  const claimed = await sql<{ delegation_id: string }[]>`
    insert into delegation_asks as a (delegation_id, asked_at, next_at)
    select id, ${now}, next_at::timestamptz from unnest(${ids}::uuid[], ${nextAts}::text[]) as c(id, next_at)
    on conflict (delegation_id) do update set asked_at = excluded.asked_at, next_at = excluded.next_at
      where a.asked_at = (select s.asked_at::timestamptz from unnest(${ids}::uuid[], ${seen as never}::text[]) as s(id, asked_at) where s.id = a.delegation_id)
    returning delegation_id`
  if (claimed.length === 0) return []
  return sql<
    DelegationRow[]
  >`${sql.unsafe(DELEGATION_SELECT)} where d.id = any(${claimed.map((c) => c.delegation_id)}::uuid[])`
}

/**
 * Of these grants, the `limit` least recently asked about (never asked first, then in the order
 * given), recorded as asked
 * now: a read that asks the agency about its own pending grants asks a bounded number, and the
 * next read the others. A grant's next due ask by the refresh moves no earlier.
 */
export async function takeLeastRecentlyAsked(
  sql: Sql,
  ids: string[],
  limit: number,
  now: Date,
  nextAt: Date,
): Promise<string[]> {
  if (ids.length === 0) return []
  const rows = await sql<{ delegation_id: string }[]>`
    insert into delegation_asks as a (delegation_id, asked_at, next_at)
    select c.id, ${now}, ${nextAt}
    from unnest(${ids}::uuid[]) with ordinality as c(id, n) left join delegation_asks x on x.delegation_id = c.id
    order by x.asked_at nulls first, c.n
    limit ${limit}
    on conflict (delegation_id) do update set asked_at = excluded.asked_at, next_at = greatest(a.next_at, excluded.next_at)
    returning delegation_id`
  return rows.map((r) => r.delegation_id)
}

export interface ReceiptRow {
  id: string
  event: 'delegation_granted' | 'delegation_revoked'
  issued_at: Date
  receipt: Record<string, unknown>
}

/** Appends the receipt; the same event for the same delegation in the same state is kept once (returns the kept one). */
export async function insertDelegationReceipt(
  sql: Sql,
  r: {
    id: string
    consumerId: string
    event: ReceiptRow['event']
    delegationId: string
    issuedAt: Date
    receipt: Record<string, unknown>
  },
): Promise<ReceiptRow> {
  await sql`
    insert into delegation_receipts (id, consumer_id, event, delegation_id, issued_at, receipt)
    values (${r.id}, ${r.consumerId}, ${r.event}, ${r.delegationId}, ${r.issuedAt}, ${sql.json(r.receipt as never)})
    on conflict do nothing`
  const [row] = await sql<ReceiptRow[]>`
    select id, event, issued_at, receipt from delegation_receipts
    where delegation_id = ${r.delegationId} and event = ${r.event} and receipt->>'delegation_status' = ${String(r.receipt.delegation_status)}`
  return row!
}

/** The consumer's receipts, newest first, strictly before the (issued_at, id) pair when given. */
export async function receiptsPage(
  sql: Sql,
  consumerId: string,
  limit: number,
  before: { at: Date; id: string } | null,
): Promise<ReceiptRow[]> {
  return before
    ? sql<ReceiptRow[]>`
        select id, event, issued_at, receipt from delegation_receipts
        where consumer_id = ${consumerId} and (issued_at, id) < (${before.at}, ${before.id}::uuid)
        order by issued_at desc, id desc limit ${limit}`
    : sql<ReceiptRow[]>`
        select id, event, issued_at, receipt from delegation_receipts
        where consumer_id = ${consumerId} order by issued_at desc, id desc limit ${limit}`
}

/**
 * A conflict lock is owned by one filing attempt (`attempt`, its own id). `holder` names who may
 * re-enter it: a retry of the same filing (the same key and Idempotency-Key). The attempt owns
 * the lock when it inserted it or took it over after it expired; a retry that re-enters a live
 * lock of its holder proceeds without owning it (what the earlier attempt did stays covered).
 * Otherwise the answer is when the current lock expires.
 */
export async function acquireActionLock(
  sql: Sql,
  l: { org: string; kind: string; period: string; holder: string; attempt: string; now: Date; ttlMs: number },
): Promise<{ acquired: true; owned: boolean } | { acquired: false; expiresAt: Date }> {
  const expires = new Date(l.now.getTime() + l.ttlMs)
  const rows = await sql<{ attempt_id: string | null }[]>`
    insert into action_locks as a (org_number, kind, period, holder, attempt_id, acquired_at, expires_at)
    values (${l.org}, ${l.kind}, ${l.period}, ${l.holder}, ${l.attempt}, ${l.now}, ${expires})
    on conflict (org_number, kind, period) do update set
      holder = excluded.holder,
      attempt_id = case when a.expires_at <= ${l.now} then excluded.attempt_id else a.attempt_id end,
      acquired_at = case when a.expires_at <= ${l.now} then excluded.acquired_at else a.acquired_at end,
      expires_at = excluded.expires_at
      where a.expires_at <= ${l.now} or a.holder = excluded.holder
    returning attempt_id`
  if (rows.length === 1) return { acquired: true, owned: rows[0]!.attempt_id === l.attempt }
  const [held] = await sql<
    { expires_at: Date }[]
  >`select expires_at from action_locks where org_number = ${l.org} and kind = ${l.kind} and period = ${l.period}`
  // Expired and taken by someone else between the two statements: it is free again for the next try.
  return { acquired: false, expiresAt: held?.expires_at ?? l.now }
}

/** Gives the lock back (a filing that never reached the portal); only the attempt that owns it can. */
export async function releaseActionLock(
  sql: Sql,
  l: { org: string; kind: string; period: string; holder: string; attempt: string },
): Promise<void> {
  await sql`
    delete from action_locks
    where org_number = ${l.org} and kind = ${l.kind} and period = ${l.period} and holder = ${l.holder} and attempt_id = ${l.attempt}`
}

export async function recordFiling(
  sql: Sql,
  f: {
    id: string
    consumerId: string
    org: string
    actionType: string
    period: string
    receiptId: string
    instanceId: string | null
    at: Date
  },
): Promise<void> {
  await sql`
    insert into filings (id, consumer_id, org_number, action_type, period, receipt_id, portal_instance_id, filed_at)
    values (${f.id}, ${f.consumerId}, ${f.org}, ${f.actionType}, ${f.period}, ${f.receiptId}, ${f.instanceId}, ${f.at})
    on conflict (id) do nothing`
}

/** The periods of the organisation's filings made through Plikt, per action type. */
export async function filedPeriods(sql: Sql, org: string): Promise<{ action_type: string; period: string }[]> {
  return sql<
    { action_type: string; period: string }[]
  >`select distinct action_type, period from filings where org_number = ${org}`
}

/** The consumer's principals for the organisation, oldest first. */
export async function listPrincipalsForOrg(sql: Sql, consumerId: string, orgNumber: string): Promise<PrincipalRow[]> {
  return sql<
    PrincipalRow[]
  >`select ${sql.unsafe(PRINCIPAL_COLUMNS)} from agent_principals where consumer_id = ${consumerId} and org_number = ${orgNumber} order by created_at, id`
}

export interface FilingRow {
  org_number: string
  action_type: string
  period: string
  receipt_id: string
  portal_instance_id: string | null
  filed_at: Date
}

/** The organisation's filings made through Plikt, newest first. */
export async function filingsOf(sql: Sql, org: string): Promise<FilingRow[]> {
  return sql<FilingRow[]>`
    select org_number, action_type, period, receipt_id, portal_instance_id, filed_at from filings
    where org_number = ${org} order by filed_at desc, id desc`
}
