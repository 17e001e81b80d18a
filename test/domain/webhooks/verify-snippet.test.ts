/**
 * The webhook verification code we publish — in docs/webhook-signature.md (served at
 * /docs/webhook-signature) and in the README — run as a receiver would run it (issue 27, item 17):
 * a request without the signature header, or with a header that is no signature, is refused with
 * `false`, never a TypeError that a receiver's framework turns into a 500 (and so a retry).
 */
import { describe, expect, test } from 'bun:test'
import { createHmac } from 'node:crypto'
import { importDocSnippet } from '../../helpers.ts'

type Verify = (rawBody: unknown, header: unknown, secret: unknown, nowSeconds?: number) => boolean

const SECRET = 'whsec_0123456789abcdefghijklmnopqrstuv'
const NOW = 1_773_480_600
const BODY = '{"subscription_id":"5f0c1c7e","attempt_number":1}'
const signed = (body: string, t = NOW, secret = SECRET) =>
  `t=${t},v1=${createHmac('sha256', secret).update(`${t}.${body}`).digest('hex')}`

const published: [string, () => Promise<{ verifyWebhook: Verify }>][] = [
  ['docs/webhook-signature.md', () => importDocSnippet('docs/webhook-signature.md', '## In code')],
  ['README.md', () => importDocSnippet('README.md', '## Changes, webhooks and anchors')],
]

describe.each(published)('verifyWebhook as %s publishes it', (_where, load) => {
  test('accepts a genuine, fresh request (string and Buffer bodies)', async () => {
    const { verifyWebhook } = await load()
    expect(verifyWebhook(BODY, signed(BODY), SECRET, NOW)).toBe(true)
    expect(verifyWebhook(Buffer.from(BODY), signed(BODY), SECRET, NOW)).toBe(true)
  })

  test.each([
    ['missing (undefined)', undefined],
    ['null', null],
    ['empty', ''],
    ['an array (a header sent twice, as some frameworks hand it over)', [signed(BODY), signed(BODY)]],
    ['not a signature', 'garbage'],
    ['a t without v1', `t=${NOW}`],
    ['a v1 that is not hex', `t=${NOW},v1=${'z'.repeat(64)}`],
    ['a v1 of the wrong length', `t=${NOW},v1=abcd`],
  ])('a header that is %s is refused with false, not an exception', async (_name, header) => {
    const { verifyWebhook } = await load()
    expect(verifyWebhook(BODY, header, SECRET, NOW)).toBe(false)
  })

  test('a missing body or secret is refused with false', async () => {
    const { verifyWebhook } = await load()
    expect(verifyWebhook(undefined, signed(BODY), SECRET, NOW)).toBe(false)
    expect(verifyWebhook(BODY, signed(BODY), undefined, NOW)).toBe(false)
  })

  test('a changed body, another secret or a stale timestamp is refused', async () => {
    const { verifyWebhook } = await load()
    expect(verifyWebhook(`${BODY} `, signed(BODY), SECRET, NOW)).toBe(false)
    expect(verifyWebhook(BODY, signed(BODY, NOW, 'whsec_other'), SECRET, NOW)).toBe(false)
    expect(verifyWebhook(BODY, signed(BODY, NOW - 301), SECRET, NOW)).toBe(false)
  })
})
