/** Consumers, API keys, browser sessions, magic links, issuance tokens and the mail outbox. */
import type { Sql } from './db.ts'
import type { Plan } from '../domain/access/types.ts'

export interface ConsumerRow {
  id: string
  email: string
  company_name: string | null
  tier: Plan
  active: boolean
  created_at: Date
}

export interface KeyRow {
  id: string
  consumer_id: string
  display_prefix: string
  label: string
  scopes: string[]
  source: string
  /** a test-tier key (`svc_test_…`): synthetic answers only */
  test: boolean
  created_at: Date
  revoked_at: Date | null
}

/** `status`: sql/0025_key_status.sql's `key_status`, the one definition of a usable key. */
export interface KeyPrincipalRow {
  key_id: string
  consumer_id: string
  scopes: string[]
  status: 'live' | 'revoked' | 'consumer_inactive'
  tier: Plan
  test: boolean
}

// -- consumers ---------------------------------------------------------------------------------

export async function findConsumerByEmail(sql: Sql, email: string): Promise<ConsumerRow | null> {
  const [row] = await sql<
    ConsumerRow[]
  >`select id, email, company_name, tier, active, created_at from consumers where email = ${email}`
  return row ?? null
}

export async function findConsumer(sql: Sql, id: string): Promise<ConsumerRow | null> {
  const [row] = await sql<
    ConsumerRow[]
  >`select id, email, company_name, tier, active, created_at from consumers where id = ${id}`
  return row ?? null
}

/** Creates the consumer, or returns the existing one with that e-mail (sign-up races included). */
export async function upsertConsumer(
  sql: Sql,
  email: string,
  companyName: string | null,
  tier: Plan = 'free',
): Promise<{ consumer: ConsumerRow; created: boolean }> {
  const [inserted] = await sql<ConsumerRow[]>`
    insert into consumers (email, company_name, tier) values (${email}, ${companyName}, ${tier})
    on conflict (email) do nothing
    returning id, email, company_name, tier, active, created_at`
  if (inserted) return { consumer: inserted, created: true }
  return { consumer: (await findConsumerByEmail(sql, email))!, created: false }
}

export async function updateConsumer(
  sql: Sql,
  id: string,
  patch: { tier?: Plan; active?: boolean },
): Promise<ConsumerRow | null> {
  const [row] = await sql<ConsumerRow[]>`
    update consumers set
      tier = coalesce(${patch.tier ?? null}, tier),
      active = coalesce(${patch.active ?? null}::boolean, active),
      updated_at = now()
    where id = ${id}
    returning id, email, company_name, tier, active, created_at`
  return row ?? null
}

/** Locks the consumer row: key and token caps are checked under this lock. */
export async function lockConsumer(sql: Sql, id: string): Promise<ConsumerRow | null> {
  const [row] = await sql<
    ConsumerRow[]
  >`select id, email, company_name, tier, active, created_at from consumers where id = ${id} for update`
  return row ?? null
}

// -- API keys ----------------------------------------------------------------------------------

const KEY_PRINCIPAL_SELECT =
  'select k.id as key_id, k.consumer_id, k.scopes, key_status(k.id) as status, c.tier, k.test from api_keys k join consumers c on c.id = k.consumer_id'

/** Resolves a key by its hash (domain/access/key-cache.ts keeps the answers; writes confirm them). */
export async function keyPrincipal(sql: Sql, keyHash: string): Promise<KeyPrincipalRow | null> {
  const [row] = await sql<KeyPrincipalRow[]>`${sql.unsafe(KEY_PRINCIPAL_SELECT)} where k.key_hash = ${keyHash}`
  return row ?? null
}

export async function keyPrincipalById(sql: Sql, keyId: string): Promise<KeyPrincipalRow | null> {
  const [row] = await sql<KeyPrincipalRow[]>`${sql.unsafe(KEY_PRINCIPAL_SELECT)} where k.id = ${keyId}`
  return row ?? null
}

export async function countActiveKeys(sql: Sql, consumerId: string): Promise<number> {
  const [row] = await sql<
    { n: number }[]
  >`select count(*)::int as n from api_keys where consumer_id = ${consumerId} and revoked_at is null`
  return row!.n
}

export async function insertKey(
  sql: Sql,
  k: {
    consumerId: string
    keyHash: string
    displayPrefix: string
    label: string
    scopes: string[]
    source: string
    test: boolean
  },
): Promise<KeyRow> {
  const [row] = await sql<KeyRow[]>`
    insert into api_keys (consumer_id, key_hash, display_prefix, label, scopes, source, test)
    values (${k.consumerId}, ${k.keyHash}, ${k.displayPrefix}, ${k.label}, ${k.scopes}, ${k.source}, ${k.test})
    returning id, consumer_id, display_prefix, label, scopes, source, test, created_at, revoked_at`
  return row!
}

export async function listKeys(sql: Sql, consumerId: string, includeRevoked: boolean): Promise<KeyRow[]> {
  return sql<KeyRow[]>`
    select id, consumer_id, display_prefix, label, scopes, source, test, created_at, revoked_at from api_keys
    where consumer_id = ${consumerId} and (${includeRevoked} or revoked_at is null)
    order by created_at, id`
}

export async function findKey(sql: Sql, id: string): Promise<KeyRow | null> {
  const [row] = await sql<
    KeyRow[]
  >`select id, consumer_id, display_prefix, label, scopes, source, test, created_at, revoked_at from api_keys where id = ${id}`
  return row ?? null
}

/** Revokes once; a second call finds nothing to change and returns null. */
export async function revokeKey(sql: Sql, id: string, consumerId: string | null): Promise<KeyRow | null> {
  const [row] = await sql<KeyRow[]>`
    update api_keys set revoked_at = now()
    where id = ${id} and revoked_at is null and (${consumerId}::uuid is null or consumer_id = ${consumerId}::uuid)
    returning id, consumer_id, display_prefix, label, scopes, source, created_at, revoked_at`
  return row ?? null
}

// -- magic links and sessions ------------------------------------------------------------------

// Links are written with the mail that carries them: store/mail-queue.ts queueMagicLinkMail.

/** Marks the link used if it is unused and unexpired; exactly one caller wins a race. */
export async function consumeMagicLink(
  sql: Sql,
  tokenHash: string,
  now: Date,
): Promise<{ email: string; company_name: string | null } | null> {
  const [row] = await sql<{ email: string; company_name: string | null }[]>`
    update magic_links set used_at = ${now}
    where token_hash = ${tokenHash} and used_at is null and expires_at > ${now}
    returning email, company_name`
  return row ?? null
}

export interface SessionRow {
  id: string
  consumer_id: string
  csrf_token: string
  tier: Plan
  active: boolean
}

export async function insertSession(
  sql: Sql,
  tokenHash: string,
  consumerId: string,
  csrfToken: string,
  expiresAt: Date,
): Promise<string> {
  const [row] = await sql<{ id: string }[]>`
    insert into sessions (token_hash, consumer_id, csrf_token, expires_at) values (${tokenHash}, ${consumerId}, ${csrfToken}, ${expiresAt})
    returning id`
  return row!.id
}

export async function findSession(sql: Sql, tokenHash: string, now: Date): Promise<SessionRow | null> {
  const [row] = await sql<SessionRow[]>`
    select s.id, s.consumer_id, s.csrf_token, c.tier, c.active
    from sessions s join consumers c on c.id = s.consumer_id
    where s.token_hash = ${tokenHash} and s.ended_at is null and s.expires_at > ${now}`
  return row ?? null
}

export async function endSession(sql: Sql, id: string): Promise<void> {
  await sql`update sessions set ended_at = now() where id = ${id} and ended_at is null`
}

// -- issuance tokens ---------------------------------------------------------------------------

export interface IssuanceTokenRow {
  id: string
  consumer_id: string
  display_prefix: string
  created_at: Date
  expires_at: Date
  redeemed_at: Date | null
  revoked_at: Date | null
}

export async function countOutstandingTokens(sql: Sql, consumerId: string, now: Date): Promise<number> {
  const [row] = await sql<{ n: number }[]>`
    select count(*)::int as n from issuance_tokens
    where consumer_id = ${consumerId} and redeemed_at is null and revoked_at is null and expires_at > ${now}`
  return row!.n
}

export async function insertIssuanceToken(
  sql: Sql,
  consumerId: string,
  tokenHash: string,
  displayPrefix: string,
  expiresAt: Date,
): Promise<IssuanceTokenRow> {
  const [row] = await sql<IssuanceTokenRow[]>`
    insert into issuance_tokens (consumer_id, token_hash, display_prefix, expires_at)
    values (${consumerId}, ${tokenHash}, ${displayPrefix}, ${expiresAt})
    returning id, consumer_id, display_prefix, created_at, expires_at, redeemed_at, revoked_at`
  return row!
}

export async function listIssuanceTokens(sql: Sql, consumerId: string): Promise<IssuanceTokenRow[]> {
  return sql<IssuanceTokenRow[]>`
    select id, consumer_id, display_prefix, created_at, expires_at, redeemed_at, revoked_at from issuance_tokens
    where consumer_id = ${consumerId} order by created_at desc, id limit 50`
}

export async function revokeIssuanceToken(sql: Sql, id: string, consumerId: string): Promise<IssuanceTokenRow | null> {
  const [row] = await sql<IssuanceTokenRow[]>`
    update issuance_tokens set revoked_at = now()
    where id = ${id} and consumer_id = ${consumerId} and redeemed_at is null and revoked_at is null
    returning id, consumer_id, display_prefix, created_at, expires_at, redeemed_at, revoked_at`
  return row ?? null
}

/** The redeemable token, locked for the redeeming transaction; concurrent redeemers wait here. */
export async function lockRedeemableToken(sql: Sql, tokenHash: string, now: Date): Promise<IssuanceTokenRow | null> {
  const [row] = await sql<IssuanceTokenRow[]>`
    select id, consumer_id, display_prefix, created_at, expires_at, redeemed_at, revoked_at from issuance_tokens
    where token_hash = ${tokenHash} and redeemed_at is null and revoked_at is null and expires_at > ${now}
    for update`
  return row ?? null
}

export async function markTokenRedeemed(sql: Sql, id: string, keyId: string, now: Date): Promise<void> {
  await sql`update issuance_tokens set redeemed_at = ${now}, redeemed_key_id = ${keyId} where id = ${id}`
}

// -- outbox ------------------------------------------------------------------------------------

export async function insertOutboxEmail(sql: Sql, to: string, subject: string, body: string): Promise<void> {
  await sql`insert into outbox_emails (to_email, subject, body_text) values (${to}, ${subject}, ${body})`
}

export async function listOutbox(
  sql: Sql,
  limit: number,
): Promise<{ id: string; to_email: string; subject: string; body_text: string; created_at: Date }[]> {
  return sql`select id, to_email, subject, body_text, created_at from outbox_emails order by created_at desc, id limit ${limit}`
}
