import nodemailer from 'nodemailer'
import type { Mailer } from './port.ts'

/**
 * Sends over SMTP. The timeouts keep one send well inside the mail job's lease
 * (jobs/mail-queue.ts MAIL_LEASE_MS): nodemailer's defaults would wait up to ten minutes.
 */
export function smtpMailer(url: string, from: string): Mailer {
  const transport = nodemailer.createTransport({
    url,
    connectionTimeout: 15_000,
    greetingTimeout: 15_000,
    socketTimeout: 60_000,
  })
  return {
    kind: 'smtp',
    async send({ to, subject, text }) {
      await transport.sendMail({ from, to, subject, text })
    },
  }
}
