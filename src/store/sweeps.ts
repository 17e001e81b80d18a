/** Deletes what has expired. Safe to run on several instances at once: every statement is idempotent. */
import type { Sql } from './db.ts'

const DAY_MS = 24 * 3600_000

/**
 * How long what the sweep deletes is kept after it expired, was used or was written (the sweep
 * and /.well-known/data-sovereignty both read this table, so the document cannot drift from it).
 */
export const RETENTION_MS = {
  /** after a sign-in link expired */
  magic_links: DAY_MS,
  /** after a session expired or was ended */
  sessions: DAY_MS,
  /** operator outbox mail, after it was written */
  outbox_emails: DAY_MS,
  /** queued mail, after it was sent */
  mail_sent: DAY_MS,
  /** queued mail given up on, after its last attempt (for the operator to see) */
  mail_failed: 30 * DAY_MS,
  /** after an approval token expired: APPROVAL_TOKEN_USED / _EXPIRED stay answerable for a late retry */
  approval_tokens: DAY_MS,
  /** sandbox audit rows, after they were written */
  sandbox_audit: 30 * DAY_MS,
} as const

export async function sweepExpired(sql: Sql, now: Date): Promise<Record<string, number>> {
  const ago = (ms: number) => new Date(now.getTime() - ms)
  const count = async (q: PromiseLike<readonly unknown[]>) => (await q).length
  return {
    rate_limit_windows: await count(sql`delete from rate_limit_windows where expires_at < ${now} returning 1`),
    idempotency_records: await count(sql`delete from idempotency_records where expires_at < ${now} returning 1`),
    magic_links: await count(
      sql`delete from magic_links where expires_at < ${ago(RETENTION_MS.magic_links)} returning 1`,
    ),
    sessions: await count(
      sql`delete from sessions where expires_at < ${ago(RETENTION_MS.sessions)} or ended_at < ${ago(RETENTION_MS.sessions)} returning 1`,
    ),
    outbox_emails: await count(
      sql`delete from outbox_emails where created_at < ${ago(RETENTION_MS.outbox_emails)} returning 1`,
    ),
    // Queued mail stays until sent (jobs/mail-queue.ts).
    mail_queue: await count(
      sql`delete from mail_queue where (status = 'sent' and sent_at < ${ago(RETENTION_MS.mail_sent)}) or (status = 'failed' and next_attempt_at < ${ago(RETENTION_MS.mail_failed)}) returning 1`,
    ),
    approval_tokens: await count(
      sql`delete from approval_tokens where expires_at < ${ago(RETENTION_MS.approval_tokens)} returning 1`,
    ),
    sandbox_audit: await count(
      sql`delete from sandbox_audit where created_at < ${ago(RETENTION_MS.sandbox_audit)} returning 1`,
    ),
  }
}
