/**
 * `X-Service-Signature: t=<unix seconds>,v1=<hex>` (spec: Events): HMAC-SHA-256 with the
 * subscription's secret (its UTF-8 bytes, `whsec_` included) over `<t>.<exact raw body>`.
 * Receivers reject a `t` more than SIGNATURE_TOLERANCE_S from their clock (docs/webhook-signature.md).
 */
import { createHmac } from 'node:crypto'

export const SIGNATURE_HEADER = 'X-Service-Signature'
export const SIGNATURE_TOLERANCE_S = 300

export function signatureHeader(secret: string, body: string, at: Date): string {
  const t = Math.floor(at.getTime() / 1000)
  const v1 = createHmac('sha256', secret).update(`${t}.${body}`, 'utf8').digest('hex')
  return `t=${t},v1=${v1}`
}
