/**
 * One webhook attempt through the SSRF pipeline against real local receivers (node:http and
 * node:https), with the live transport: signature, TLS, redirects, oversized answers, timeouts,
 * and hosts that resolve where they must not. DNS answers come from an injected resolver, which
 * counts its calls: a DNS answer that changes between the check and the connection must not be
 * asked for, let alone used.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { attemptDelivery, MAX_RESPONSE_BYTES, type DeliveryEnv } from '../../../src/domain/webhooks/delivery.ts'
import type { ResolvedAddress } from '../../../src/domain/webhooks/target.ts'
import { liveWebhookTransport } from '../../../src/upstream/webhooks/live.ts'
import type { WebhookPost, WebhookTransport } from '../../../src/upstream/webhooks/port.ts'
import { independentVerify, selfSignedCertificate, startReceiver, type Receiver } from '../../helpers.ts'
import { PINNED_NOW } from '../../helpers.ts'

const SECRET = 'whsec_' + '5e'.repeat(32)
const AT = new Date(PINNED_NOW)
const NOW_S = Math.floor(AT.getTime() / 1000)

let plain: Receiver
let elsewhere: Receiver
let secure: Receiver
let cert: { key: string; cert: string }

beforeAll(async () => {
  plain = await startReceiver({ now: () => NOW_S })
  elsewhere = await startReceiver({ now: () => NOW_S })
  cert = selfSignedCertificate(['localhost', '127.0.0.1'])
  secure = await startReceiver({ tls: cert, now: () => NOW_S })
})
afterAll(async () => {
  await Promise.all([plain.stop(), elsewhere.stop(), secure.stop()])
})

function resolverOf(answers: Record<string, string[][]>) {
  const calls: string[] = []
  const resolve = async (host: string): Promise<ResolvedAddress[]> => {
    calls.push(host)
    const seq = answers[host]
    if (!seq) throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${host}`), { code: 'ENOTFOUND' })
    const list = seq[Math.min(calls.filter((h) => h === host).length - 1, seq.length - 1)]!
    return list.map((address) => ({ address, family: address.includes(':') ? 6 : 4 }))
  }
  return { calls, resolve }
}

const envWith = (
  opts: {
    allowLoopback?: boolean
    resolve?: (h: string) => Promise<ResolvedAddress[]>
    transport?: WebhookTransport
    timeoutMs?: number
  } = {},
): DeliveryEnv => ({
  transport:
    opts.transport ?? liveWebhookTransport({ ca: [cert.cert], ...(opts.resolve ? { resolve: opts.resolve } : {}) }),
  policy: { allowLoopback: opts.allowLoopback ?? true },
  ...(opts.timeoutMs ? { timeoutMs: opts.timeoutMs } : {}),
})

const send = (
  env: DeliveryEnv,
  webhookUrl: string,
  body = JSON.stringify({ subscription_id: 'sub-1', change: { id: 'c-1' } }),
) =>
  attemptDelivery(env, {
    webhookUrl,
    body,
    secret: SECRET,
    at: AT,
    eventType: 'accounts.updated',
    deliveryId: crypto.randomUUID(),
    correlationId: crypto.randomUUID(),
  })

describe('a delivery that arrives', () => {
  test('is a POST whose X-Service-Signature an independent implementation accepts', async () => {
    plain.arrivals.length = 0
    const body = JSON.stringify({ subscription_id: 'sub-1', change: { id: 'c-1', note: 'æøå' } })
    const out = await send(envWith(), `${plain.url}/hook?x=1`, body)
    expect(out).toMatchObject({ delivered: true, http_status: 200, error_class: null })
    const got = plain.arrivals[0]!
    expect(got.path).toBe('/hook?x=1')
    expect(got.body).toBe(body)
    expect(got.headers['content-type']).toBe('application/json')
    expect(got.headers['x-service-signature']).toBe(out.signature_header)
    expect(independentVerify(got.body, got.headers['x-service-signature'], SECRET, NOW_S)).toBe(true)
    expect(independentVerify(got.body, got.headers['x-service-signature'], 'whsec_' + '00'.repeat(32), NOW_S)).toBe(
      false,
    )
    expect(independentVerify(got.body, got.headers['x-service-signature'], SECRET, NOW_S + 301)).toBe(false)
  })

  test('over TLS, the certificate is checked against the URL’s name while the connection goes to the checked address', async () => {
    secure.arrivals.length = 0
    const out = await send(envWith(), `https://localhost:${secure.port}/tls`)
    expect(out).toMatchObject({ delivered: true, http_status: 200 })
    expect(secure.arrivals[0]!.headers.host).toBe(`localhost:${secure.port}`)
  })

  test('a certificate no trusted authority signed is a tls_error, and nothing is delivered', async () => {
    secure.arrivals.length = 0
    const env: DeliveryEnv = { transport: liveWebhookTransport(), policy: { allowLoopback: true } }
    const out = await send(env, `https://localhost:${secure.port}/tls`)
    expect(out).toMatchObject({ delivered: false, http_status: null, error_class: 'tls_error' })
    expect(secure.arrivals).toHaveLength(0)
  })
})

describe('answers that are not a plain 2xx', () => {
  test('a redirect is not followed: redirect_blocked, and its target hears nothing', async () => {
    plain.answer = () => ({ status: 302, headers: { location: `${elsewhere.url}/stolen` } })
    elsewhere.arrivals.length = 0
    try {
      const out = await send(envWith(), `${plain.url}/moved`)
      expect(out).toMatchObject({ delivered: false, http_status: 302, error_class: 'redirect_blocked' })
      expect(elsewhere.arrivals).toHaveLength(0)
    } finally {
      plain.answer = () => ({ status: 200 })
    }
  })

  test('an answer over 64 KiB is cut off: body_too_large, and a 2xx still counts as delivered', async () => {
    plain.answer = () => ({ status: 200, body: Buffer.alloc(MAX_RESPONSE_BYTES * 4, 0x61) })
    try {
      expect(await send(envWith(), `${plain.url}/big`)).toMatchObject({
        delivered: true,
        http_status: 200,
        error_class: 'body_too_large',
      })
    } finally {
      plain.answer = () => ({ status: 200 })
    }
  })

  test('a 4xx or 5xx is not delivered and carries its status', async () => {
    plain.answer = () => ({ status: 410 })
    try {
      expect(await send(envWith(), `${plain.url}/gone`)).toMatchObject({
        delivered: false,
        http_status: 410,
        error_class: null,
      })
    } finally {
      plain.answer = () => ({ status: 200 })
    }
  })

  test('a receiver slower than the timeout is a timeout', async () => {
    plain.answer = () => ({ status: 200, delayMs: 3000 })
    try {
      expect(await send(envWith({ timeoutMs: 100 }), `${plain.url}/slow`)).toMatchObject({
        delivered: false,
        http_status: null,
        error_class: 'timeout',
      })
    } finally {
      plain.answer = () => ({ status: 200 })
    }
  })

  test('nobody listening is connection_failed', async () => {
    const gone = await startReceiver()
    const url = gone.url
    await gone.stop()
    expect(await send(envWith(), `${url}/none`)).toMatchObject({
      delivered: false,
      http_status: null,
      error_class: 'connection_failed',
    })
  })
})

describe('hosts that resolve where they must not', () => {
  /** A transport that records where it was told to connect and answers 204 without connecting anywhere. */
  function recordingTransport(resolve: (h: string) => Promise<ResolvedAddress[]>) {
    const posts: WebhookPost[] = []
    const transport: WebhookTransport = {
      resolve,
      post: async (p) => {
        posts.push(p)
        return { kind: 'response', status: 204, bodyTooLarge: false, elapsedMs: 1 }
      },
    }
    return { posts, transport }
  }

  test('a name that resolves to 127.0.0.1 is ssrf_blocked, and nothing is sent', async () => {
    const dns = resolverOf({ 'hooks.plikt-test.no': [['127.0.0.1']] })
    const { posts, transport } = recordingTransport(dns.resolve)
    expect(await send(envWith({ transport, allowLoopback: false }), 'https://hooks.plikt-test.no/x')).toMatchObject({
      delivered: false,
      error_class: 'ssrf_blocked',
    })
    expect(posts).toHaveLength(0)
  })

  test('WEBHOOK_ALLOW_LOOPBACK does not admit a name that resolves to 127.0.0.1', async () => {
    const dns = resolverOf({ 'hooks.plikt-test.no': [['127.0.0.1']] })
    const { posts, transport } = recordingTransport(dns.resolve)
    expect(await send(envWith({ transport, allowLoopback: true }), 'https://hooks.plikt-test.no/x')).toMatchObject({
      error_class: 'ssrf_blocked',
    })
    expect(posts).toHaveLength(0)
  })

  test.each([['::ffff:10.0.0.7'], ['169.254.169.254'], ['fd00:ec2::254'], ['192.168.10.1']])(
    'a name that resolves to %s is ssrf_blocked',
    async (ip) => {
      const dns = resolverOf({ 'hooks.plikt-test.no': [[ip]] })
      const { posts, transport } = recordingTransport(dns.resolve)
      expect(await send(envWith({ transport, allowLoopback: false }), 'https://hooks.plikt-test.no/x')).toMatchObject({
        error_class: 'ssrf_blocked',
      })
      expect(posts).toHaveLength(0)
    },
  )

  test('a name with one private address among public ones is ssrf_blocked', async () => {
    const dns = resolverOf({ 'hooks.plikt-test.no': [['93.184.216.34', '10.0.0.1']] })
    const { posts, transport } = recordingTransport(dns.resolve)
    expect(await send(envWith({ transport, allowLoopback: false }), 'https://hooks.plikt-test.no/x')).toMatchObject({
      error_class: 'ssrf_blocked',
    })
    expect(posts).toHaveLength(0)
  })

  test('a name that does not resolve is dns_failed', async () => {
    const dns = resolverOf({})
    const { transport } = recordingTransport(dns.resolve)
    expect(await send(envWith({ transport, allowLoopback: false }), 'https://nowhere.plikt-test.no/x')).toMatchObject({
      error_class: 'dns_failed',
    })
  })

  test('DNS rebinding: the name is resolved once, and the request goes to the address that was checked, not to a later answer', async () => {
    // first answer public, every later one loopback: an attacker's rebinding name
    const dns = resolverOf({ 'rebind.plikt-test.no': [['93.184.216.34'], ['127.0.0.1']] })
    const { posts, transport } = recordingTransport(dns.resolve)
    const out = await send(envWith({ transport, allowLoopback: false }), 'https://rebind.plikt-test.no/x')
    expect(out.delivered).toBe(true)
    expect(dns.calls).toEqual(['rebind.plikt-test.no'])
    expect(posts.map((p) => p.address)).toEqual([{ address: '93.184.216.34', family: 4 }])
  })
})
