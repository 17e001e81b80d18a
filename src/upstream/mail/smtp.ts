import nodemailer from 'nodemailer'
import type { Mailer } from './port.ts'

export function smtpMailer(url: string, from: string): Mailer {
  const transport = nodemailer.createTransport(url)
  return {
    kind: 'smtp',
    async send({ to, subject, text }) {
      await transport.sendMail({ from, to, subject, text })
    },
  }
}
