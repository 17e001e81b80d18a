/**
 * The receivers of webhooks: any HTTPS endpoint a consumer names. The domain decides where a
 * request may go (src/domain/webhooks/target.ts); this port only resolves names and sends to the
 * one address it is given.
 */
import type { ResolvedAddress } from '../../domain/webhooks/target.ts'

export interface WebhookPost {
  url: URL
  /** the address to connect to: the one that was checked; the name is never looked up again */
  address: ResolvedAddress
  body: string
  headers: Record<string, string>
  timeoutMs: number
  /** bytes of the response body read at most; the rest is not read */
  maxResponseBytes: number
}

export type WebhookResponse =
  | { kind: 'response'; status: number; bodyTooLarge: boolean; elapsedMs: number }
  | { kind: 'failed'; errorClass: 'timeout' | 'connection_failed' | 'tls_error'; message: string; elapsedMs: number }

export interface WebhookTransport {
  /** every address the name has now (A and AAAA); throws when it has none */
  resolve(host: string): Promise<ResolvedAddress[]>
  post(p: WebhookPost): Promise<WebhookResponse>
}
