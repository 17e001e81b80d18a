/**
 * CSRF tokens for forms that have no session to carry one (the mock agency's approval page): an
 * HMAC-SHA-256, under a server key, of what the form is for, what it acts on and until when. A
 * token is `<expiry in Unix seconds>.<base64url MAC>`; it is valid only for that form, that
 * subject and until its expiry, and nobody without the key can make one. Nothing is stored.
 */
import { createHmac } from 'node:crypto'
import { safeEqual } from './hash.ts'

function mac(key: Buffer, purpose: string, subject: string, expiresS: number): string {
  return createHmac('sha256', key).update(`${purpose}\n${subject}\n${expiresS}`, 'utf8').digest('base64url')
}

export function formToken(key: Buffer, purpose: string, subject: string, expires: Date): string {
  const expiresS = Math.floor(expires.getTime() / 1000)
  return `${expiresS}.${mac(key, purpose, subject, expiresS)}`
}

/** True when `token` was made for this purpose and subject and has not expired at `now`. */
export function checkFormToken(key: Buffer, purpose: string, subject: string, token: string, now: Date): boolean {
  const m = /^(\d{1,12})\.([A-Za-z0-9_-]{43})$/.exec(token)
  if (!m) return false
  const expiresS = Number(m[1])
  // The MAC is compared even for an expired token, so the answer's timing says nothing about which check failed.
  const authentic = safeEqual(m[2]!, mac(key, purpose, subject, expiresS))
  return authentic && expiresS * 1000 > now.getTime()
}
