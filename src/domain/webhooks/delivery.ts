/**
 * One signed webhook attempt through the SSRF pipeline, shared by the delivery sweep and the
 * sandbox's test event: check the URL; resolve the host and check every address it has now;
 * connect to the first of them (the transport never looks the name up again); send the body with
 * `X-Service-Signature`; classify what came back. 3xx is not followed (`redirect_blocked`); a
 * response body over 64 KiB is not read further (`body_too_large`); 10 s bound the whole attempt.
 */
import type { WebhookTransport } from '../../upstream/webhooks/port.ts'
import { SERVICE_NAME, SCHEMA_VERSION } from '../../lib/service.ts'
import type { ChangeView } from '../changes/archive.ts'
import { SIGNATURE_HEADER, signatureHeader } from './signature.ts'
import { blockedAmong, checkWebhookUrl, type ResolvedAddress, type TargetPolicy } from './target.ts'

export const ATTEMPT_TIMEOUT_MS = 10_000
export const MAX_RESPONSE_BYTES = 64 * 1024

export interface DeliveryEnv {
  transport: WebhookTransport
  policy: TargetPolicy
  /** default ATTEMPT_TIMEOUT_MS */
  timeoutMs?: number
}

export type ErrorClass =
  | 'ssrf_blocked'
  | 'dns_failed'
  | 'redirect_blocked'
  | 'body_too_large'
  | 'timeout'
  | 'connection_failed'
  | 'tls_error'
  | 'secret_unreadable'

export interface AttemptOutcome {
  delivered: boolean
  http_status: number | null
  error_class: ErrorClass | null
  response_time_ms: number
  /** for the delivery log only: why, in words (never the secret, never the body) */
  detail: string | null
}

/** The spec's delivery body, serialised once: the signature is over exactly these bytes. */
export function deliveryBody(p: {
  subscriptionId: string
  deliveredAt: Date
  attemptNumber: number
  correlationId: string
  change: ChangeView
}): string {
  return JSON.stringify({
    subscription_id: p.subscriptionId,
    delivered_at: p.deliveredAt.toISOString(),
    attempt_number: p.attemptNumber,
    correlation_id: p.correlationId,
    change: p.change,
  })
}

const USER_AGENT = `${SERVICE_NAME}-Webhooks/${SCHEMA_VERSION}`

/** Where the URL may be sent now: the address to connect to, or why not. */
export async function admittedAddress(
  env: DeliveryEnv,
  webhookUrl: string,
): Promise<
  | { ok: true; url: URL; address: ResolvedAddress }
  | { ok: false; error_class: 'ssrf_blocked' | 'dns_failed'; detail: string }
> {
  const checked = checkWebhookUrl(webhookUrl, env.policy)
  if (!checked.ok) return { ok: false, error_class: 'ssrf_blocked', detail: `the URL ${checked.reason}` }
  if (checked.target.address) return { ok: true, url: checked.target.url, address: checked.target.address }
  let addresses: ResolvedAddress[]
  try {
    addresses = await env.transport.resolve(checked.target.host)
  } catch (e) {
    return {
      ok: false,
      error_class: 'dns_failed',
      detail: `the host does not resolve (${e instanceof Error ? e.message : String(e)})`,
    }
  }
  const why = blockedAmong(addresses)
  if (why) return { ok: false, error_class: 'ssrf_blocked', detail: `the host resolves to ${why}` }
  return { ok: true, url: checked.target.url, address: addresses[0]! }
}

export async function attemptDelivery(
  env: DeliveryEnv,
  p: {
    webhookUrl: string
    body: string
    secret: string
    at: Date
    eventType: string
    deliveryId: string
    correlationId: string
  },
): Promise<AttemptOutcome & { signature_header: string }> {
  const started = performance.now()
  const elapsed = () => Math.round(performance.now() - started)
  const signature = signatureHeader(p.secret, p.body, p.at)
  const target = await admittedAddress(env, p.webhookUrl)
  if (!target.ok)
    return {
      delivered: false,
      http_status: null,
      error_class: target.error_class,
      response_time_ms: elapsed(),
      detail: target.detail,
      signature_header: signature,
    }
  const answer = await env.transport.post({
    url: target.url,
    address: target.address,
    body: p.body,
    headers: {
      'content-type': 'application/json',
      'user-agent': USER_AGENT,
      [SIGNATURE_HEADER.toLowerCase()]: signature,
      'x-service-event': p.eventType,
      'x-service-delivery': p.deliveryId,
      'x-correlation-id': p.correlationId,
    },
    timeoutMs: env.timeoutMs ?? ATTEMPT_TIMEOUT_MS,
    maxResponseBytes: MAX_RESPONSE_BYTES,
  })
  if (answer.kind === 'failed')
    return {
      delivered: false,
      http_status: null,
      error_class: answer.errorClass,
      response_time_ms: answer.elapsedMs,
      detail: answer.message,
      signature_header: signature,
    }
  const status = answer.status
  const delivered = status >= 200 && status < 300
  const error_class: ErrorClass | null =
    status >= 300 && status < 400 ? 'redirect_blocked' : answer.bodyTooLarge ? 'body_too_large' : null
  return {
    delivered,
    http_status: status,
    error_class,
    response_time_ms: answer.elapsedMs,
    detail: null,
    signature_header: signature,
  }
}
