/**
 * Outgoing e-mail. SMTP when SMTP_URL is set; otherwise the operator's outbox. Only the mail job
 * (jobs/mail-queue.ts) sends: requests queue mail (store/mail-queue.ts) and never wait for a send.
 */
export interface Mailer {
  send(message: { to: string; subject: string; text: string }): Promise<void>
  /** `smtp` or `outbox`, for logs and the README */
  readonly kind: 'smtp' | 'outbox'
}
