/** Deletes what has expired. Safe to run on several instances at once: every statement is idempotent. */
import type { Sql } from './db.ts'

export async function sweepExpired(sql: Sql, now: Date): Promise<Record<string, number>> {
  const dayAgo = new Date(now.getTime() - 24 * 3600_000)
  const count = async (q: PromiseLike<readonly unknown[]>) => (await q).length
  return {
    rate_limit_windows: await count(sql`delete from rate_limit_windows where expires_at < ${now} returning 1`),
    idempotency_records: await count(sql`delete from idempotency_records where expires_at < ${now} returning 1`),
    magic_links: await count(sql`delete from magic_links where expires_at < ${dayAgo} returning 1`),
    sessions: await count(sql`delete from sessions where expires_at < ${dayAgo} or ended_at < ${dayAgo} returning 1`),
    outbox_emails: await count(sql`delete from outbox_emails where created_at < ${dayAgo} returning 1`),
    // Queued mail stays until sent (jobs/mail-queue.ts). A sent one (it keeps no link) goes a day
    // later; one given up on is kept a month after its last attempt, for the operator to see.
    mail_queue: await count(
      sql`delete from mail_queue where (status = 'sent' and sent_at < ${dayAgo}) or (status = 'failed' and next_attempt_at < ${new Date(now.getTime() - 30 * 24 * 3600_000)}) returning 1`,
    ),
    // A day's grace keeps APPROVAL_TOKEN_USED / _EXPIRED answerable for a late retry.
    approval_tokens: await count(sql`delete from approval_tokens where expires_at < ${dayAgo} returning 1`),
    sandbox_audit: await count(sql`delete from sandbox_audit where created_at < ${new Date(now.getTime() - 30 * 24 * 3600_000)} returning 1`),
  }
}
