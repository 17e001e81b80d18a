/** Outgoing e-mail. SMTP when SMTP_URL is set; otherwise the operator's outbox (and the log). */
export interface Mailer {
  send(message: { to: string; subject: string; text: string }): Promise<void>
  /** `smtp` or `outbox`, for logs and the README */
  readonly kind: 'smtp' | 'outbox'
}
