/**
 * Sign-up and sign-in by magic link. Asking for a link always answers the same, and does the same
 * work, whether or not the e-mail is known: the mail is queued, and a job sends it. Opening the
 * link once creates the account (with a free key, shown once) or signs the owner in, and starts a
 * browser session.
 */
import { AppError } from '../../errors/app-error.ts'
import { hashSecret, randomBase62 } from '../../lib/tokens.ts'
import type { Sql } from '../../store/db.ts'
import * as accounts from '../../store/accounts.ts'
import { appendAudit } from '../../store/audit.ts'
import { queueMagicLinkMail } from '../../store/mail-queue.ts'
import { mintKeyIn, type MintedKey } from './keys.ts'

export const MAGIC_LINK_TTL_MS = 15 * 60_000
export const SESSION_TTL_MS = 7 * 24 * 3600_000

export function normaliseEmail(email: string): string {
  return email.trim().toLowerCase()
}

export interface LinkRequest {
  email: string
  /** present (with consent) for a sign-up; absent for a returning user */
  company_name?: string
}

/**
 * Queues a sign-in link when the e-mail has an account, a sign-up link when the request carries a
 * company name, and nothing otherwise — the caller sees the same answer in every case. Nothing is
 * sent here (jobs/mail-queue.ts sends), and every case does the same work: one lookup, then one
 * statement that writes the link (or not) and one queue row (with no address when nothing is to be
 * sent). So neither the answer's timing nor an SMTP outage tells a known address from an unknown one.
 */
export async function requestMagicLink(
  sql: Sql,
  baseUrl: string,
  req: LinkRequest,
  now: Date,
  correlationId: string,
): Promise<void> {
  const email = normaliseEmail(req.email)
  const existing = await accounts.findConsumerByEmail(sql, email)
  const signup = !existing
  const token = randomBase62(43)
  const link = `${baseUrl}/auth/magic?token=${token}`
  await queueMagicLinkMail(
    sql,
    {
      deliver: Boolean(existing || req.company_name),
      tokenHash: hashSecret(token),
      email,
      companyName: existing ? null : req.company_name?.trim() || null,
      expiresAt: new Date(now.getTime() + MAGIC_LINK_TTL_MS),
      subject: signup
        ? 'Fullfør registreringen hos Plikt / Complete your Plikt sign-up'
        : 'Logg inn hos Plikt / Sign in to Plikt',
      text:
        `${signup ? 'Åpne lenken for å opprette kontoen din' : 'Åpne lenken for å logge inn'} (gyldig i 15 minutter, kan brukes én gang):\n${link}\n\n` +
        `${signup ? 'Open the link to create your account' : 'Open the link to sign in'} (valid for 15 minutes, single use).\n\n` +
        'Har du ikke bedt om dette, kan du se bort fra e-posten. / If you did not ask for this, ignore this e-mail.\n' +
        `Ref: ${correlationId}`,
    },
    now,
  )
}

export interface SignedIn {
  consumer: accounts.ConsumerRow
  created: boolean
  /** only when the account was created just now */
  firstKey: MintedKey | null
  sessionToken: string
  csrfToken: string
}

/** Uses the link (once), creates or finds the account, and opens a session — all or nothing. */
export async function completeMagicLink(sql: Sql, token: string, now: Date, correlationId: string): Promise<SignedIn> {
  return sql.begin(async (tx) => {
    const t = tx as unknown as Sql
    const link = await accounts.consumeMagicLink(t, hashSecret(token), now)
    if (!link) throw new AppError('AUTH_EXPIRED_TOKEN')
    const { consumer, created } = await accounts.upsertConsumer(t, link.email, link.company_name)
    if (!consumer.active) throw new AppError('AUTH_CONSUMER_INACTIVE')
    // A link asked for as a sign-up, opened after the account already exists, signs in instead.
    const firstKey = created
      ? await mintKeyIn(
          t,
          consumer.id,
          { label: 'first key', source: 'signup' },
          { actor: `consumer:${consumer.id}`, correlationId },
        )
      : null
    const sessionToken = randomBase62(43)
    const csrfToken = randomBase62(32)
    const sessionId = await accounts.insertSession(
      t,
      hashSecret(sessionToken),
      consumer.id,
      csrfToken,
      new Date(now.getTime() + SESSION_TTL_MS),
    )
    await appendAudit(t, {
      consumerId: consumer.id,
      actor: `session:${sessionId}`,
      action: created ? 'sign_up' : 'sign_in',
      correlationId,
      details: {},
    })
    return { consumer, created, firstKey, sessionToken, csrfToken }
  }) as Promise<SignedIn>
}

export async function sessionPrincipal(sql: Sql, sessionToken: string, now: Date) {
  const row = await accounts.findSession(sql, hashSecret(sessionToken), now)
  if (!row) return null
  if (!row.active) throw new AppError('AUTH_CONSUMER_INACTIVE')
  return {
    kind: 'session' as const,
    sessionId: row.id,
    consumerId: row.consumer_id,
    plan: row.tier,
    csrfToken: row.csrf_token,
  }
}

export async function signOut(sql: Sql, sessionId: string, consumerId: string, correlationId: string): Promise<void> {
  await accounts.endSession(sql, sessionId)
  await appendAudit(sql, { consumerId, actor: `session:${sessionId}`, action: 'sign_out', correlationId, details: {} })
}
