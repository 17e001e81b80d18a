/**
 * The outgoing mail queue (sql/0012_mail_queue.sql). Requests write rows; jobs/mail-queue.ts claims
 * and sends them. A claim is one short statement (FOR UPDATE SKIP LOCKED), committed before the
 * send, so no transaction stays open while SMTP answers and several instances never claim one row.
 */
import type { Sql } from './db.ts'

export interface QueuedMail {
  id: string
  to_email: string
  subject: string
  body_text: string
  /** including the claim that returned the row */
  attempts: number
}

export interface LinkMail {
  /** false: the request leads to no mail (an unknown address asking to sign in) */
  deliver: boolean
  tokenHash: string
  email: string
  companyName: string | null
  expiresAt: Date
  subject: string
  text: string
}

/**
 * One statement, the same whether or not the request leads to a mail: with `deliver`, the magic
 * link and the mail that carries it; without, no link and a queue row with no address, subject or
 * body, which the job drops. Only parameter values differ, so the request does the same work either
 * way, and an address that leads to no mail is not stored.
 */
export async function queueMagicLinkMail(sql: Sql, m: LinkMail, now: Date): Promise<void> {
  const keep = <T>(value: T, otherwise: T) => (m.deliver ? value : otherwise)
  await sql`
    with link as (
      insert into magic_links (token_hash, email, company_name, expires_at)
      select ${m.tokenHash}, ${keep(m.email, '')}, ${keep(m.companyName, null)}::text, ${m.expiresAt}::timestamptz
      where ${m.deliver}::boolean
    )
    insert into mail_queue (to_email, subject, body_text, next_attempt_at)
    values (${keep<string | null>(m.email, null)}::text, ${keep(m.subject, '')}, ${keep(m.text, '')}, ${now})`
}

/** Deletes the rows written for requests that lead to no mail. */
export async function dropAddresslessMail(sql: Sql): Promise<number> {
  return (await sql`delete from mail_queue where to_email is null returning 1`).length
}

/**
 * Claims the oldest due mail, if any: counts the attempt and sets the row's next attempt to
 * `leaseUntil`, so that it is due again only if this sender never reports back.
 */
export async function claimDueMail(sql: Sql, now: Date, leaseUntil: Date): Promise<QueuedMail | null> {
  const [row] = await sql<QueuedMail[]>`
    update mail_queue set attempts = attempts + 1, next_attempt_at = ${leaseUntil}
    where id = (
      select id from mail_queue
      where status = 'queued' and next_attempt_at <= ${now} and to_email is not null
      order by next_attempt_at, id
      limit 1
      for update skip locked)
    returning id, to_email, subject, body_text, attempts`
  return row ?? null
}

/** Sent: the body (a live link) is not kept. */
export async function markMailSent(sql: Sql, id: string, now: Date): Promise<void> {
  await sql`update mail_queue set status = 'sent', sent_at = ${now}, body_text = '', last_error = null where id = ${id}`
}

/** Failed: due again at `retryAt`, or kept as `failed` (never deleted here) once `giveUp`. */
export async function markMailFailed(
  sql: Sql,
  id: string,
  error: string,
  retryAt: Date,
  giveUp: boolean,
): Promise<void> {
  await sql`
    update mail_queue set last_error = ${error.slice(0, 500)}, next_attempt_at = ${retryAt}, status = ${giveUp ? 'failed' : 'queued'}
    where id = ${id}`
}
