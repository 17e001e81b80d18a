/**
 * Every few seconds: send the queued mail (store/mail-queue.ts) through the Mailer — SMTP, or the
 * operator outbox without SMTP_URL. Requests only queue mail, so how long a send takes, or whether
 * SMTP is up, never shows in an answer (a known address would otherwise answer slower, or fail).
 *
 * Each mail is claimed on its own with FOR UPDATE SKIP LOCKED and a lease, then sent outside any
 * transaction, then marked sent: several instances (or overlapping runs) never send a mail twice,
 * and a sender that dies mid-send leaves the mail due again when its lease runs out (at least once;
 * a death between the send and the mark is the one case that can send twice). A failed send stays
 * queued and is retried with doubling backoff; after MAIL_MAX_ATTEMPTS it is kept as `failed` and
 * logged as an error, never deleted by this job. Rows written for requests that lead to no mail
 * are deleted.
 */
import type { Clock } from '../src/lib/clock.ts'
import type { Logger } from '../src/lib/log.ts'
import type { Sql } from '../src/store/db.ts'
import { claimDueMail, dropAddresslessMail, markMailFailed, markMailSent } from '../src/store/mail-queue.ts'
import type { Mailer } from '../src/upstream/mail/port.ts'

/** Sends per mail before it is given up: 0 s, +30 s, +1 min, +2 min, +4 min, within the link's 15 minutes. */
export const MAIL_MAX_ATTEMPTS = 5
export const MAIL_RETRY_BASE_MS = 30_000
export const MAIL_RETRY_MAX_MS = 10 * 60_000
/** How long a claimed mail is left to its sender (an SMTP send is bounded well below this: upstream/mail/smtp.ts). */
export const MAIL_LEASE_MS = 5 * 60_000
/** Mails per run, so that one run ends even if the queue keeps filling. */
const MAX_PER_RUN = 100

export function mailRetryDelayMs(attempts: number): number {
  return Math.min(MAIL_RETRY_BASE_MS * 2 ** Math.max(attempts - 1, 0), MAIL_RETRY_MAX_MS)
}

export interface MailQueueResult {
  sent: number
  failed: number
  dropped: number
}

export async function runMailQueue(deps: { sql: Sql; clock: Clock; logger: Logger; mailer: Mailer }): Promise<MailQueueResult> {
  const result: MailQueueResult = { sent: 0, failed: 0, dropped: await dropAddresslessMail(deps.sql) }
  for (let i = 0; i < MAX_PER_RUN; i++) {
    const claimedAt = deps.clock.now()
    const mail = await claimDueMail(deps.sql, claimedAt, new Date(claimedAt.getTime() + MAIL_LEASE_MS))
    if (!mail) break
    try {
      await deps.mailer.send({ to: mail.to_email, subject: mail.subject, text: mail.body_text })
    } catch (e) {
      result.failed++
      const giveUp = mail.attempts >= MAIL_MAX_ATTEMPTS
      const retryAt = new Date(deps.clock.now().getTime() + mailRetryDelayMs(mail.attempts))
      await markMailFailed(deps.sql, mail.id, String(e), retryAt, giveUp)
      const fields = { mail_id: mail.id, attempts: mail.attempts, mailer: deps.mailer.kind, error: String(e) }
      if (giveUp) deps.logger.error('mail not sent: given up, kept in mail_queue as failed', fields)
      else deps.logger.warn('mail not sent: will retry', { ...fields, retry_at: retryAt.toISOString() })
      continue
    }
    await markMailSent(deps.sql, mail.id, deps.clock.now())
    result.sent++
  }
  if (result.sent + result.failed + result.dropped > 0) deps.logger.info('mail queue', { ...result })
  return result
}
