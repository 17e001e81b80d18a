import type { Logger } from '../../lib/log.ts'
import type { Sql } from '../../store/db.ts'
import { insertOutboxEmail } from '../../store/accounts.ts'
import type { Mailer } from './port.ts'

/**
 * Without SMTP the message goes to the outbox table, where the operator reads it
 * (`GET /api/v1/admin/outbox`). The log says a mail was stored, never what it says: its body holds
 * a live sign-in link. With an https BASE_URL the service refuses to start in this mode unless
 * ALLOW_OUTBOX_MAIL=true (src/config.ts): use SMTP in production.
 */
export function outboxMailer(sql: Sql, logger: Logger): Mailer {
  return {
    kind: 'outbox',
    async send({ to, subject, text }) {
      await insertOutboxEmail(sql, to, subject, text)
      logger.info('mail not sent (SMTP_URL unset): stored in the outbox, read it with GET /api/v1/admin/outbox', {
        subject,
      })
    },
  }
}
