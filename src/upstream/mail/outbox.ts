import type { Logger } from '../../lib/log.ts'
import type { Sql } from '../../store/db.ts'
import { insertOutboxEmail } from '../../store/accounts.ts'
import type { Mailer } from './port.ts'

/**
 * Without SMTP the message goes to the outbox table (`GET /api/v1/admin/outbox`) and to the log,
 * as the quick start promises. This puts a sign-in link in the log: use SMTP in production.
 */
export function outboxMailer(sql: Sql, logger: Logger): Mailer {
  return {
    kind: 'outbox',
    async send({ to, subject, text }) {
      await insertOutboxEmail(sql, to, subject, text)
      logger.info('mail not sent (SMTP_URL unset): stored in the outbox', { mail_to: to, subject, body: text })
    },
  }
}
