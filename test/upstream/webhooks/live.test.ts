/**
 * The live webhook transport against real local receivers: it connects to the address it is given
 * and nothing else — the URL's name goes only into the Host header, SNI and the certificate check.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { MAX_RESPONSE_BYTES } from '../../../src/domain/webhooks/delivery.ts'
import { liveWebhookTransport } from '../../../src/upstream/webhooks/live.ts'
import { selfSignedCertificate, startReceiver, type Receiver } from '../../helpers.ts'

let plain: Receiver
beforeAll(async () => {
  plain = await startReceiver()
})
afterAll(async () => {
  await plain.stop()
})

describe('the live transport', () => {
  test('connects to the address it is given and never looks the name up (a name no DNS knows still arrives, by its own Host)', async () => {
    plain.arrivals.length = 0
    const resolves: string[] = []
    const transport = liveWebhookTransport({ resolve: async (h) => (resolves.push(h), []) })
    const out = await transport.post({
      url: new URL(`http://rebind.plikt-test.no:${plain.port}/direct`),
      address: { address: '127.0.0.1', family: 4 },
      body: '{}',
      headers: { 'content-type': 'application/json' },
      timeoutMs: 5000,
      maxResponseBytes: MAX_RESPONSE_BYTES,
    })
    expect(out).toMatchObject({ kind: 'response', status: 200 })
    expect(resolves).toEqual([])
    expect(plain.arrivals[0]!.headers.host).toBe(`rebind.plikt-test.no:${plain.port}`)
  })

  test('over TLS it sends the URL’s name as SNI and checks the certificate against it, connected to the given address', async () => {
    const named = selfSignedCertificate(['receiver.plikt-test.no'])
    const server = await startReceiver({ tls: named })
    try {
      const transport = liveWebhookTransport({ ca: [named.cert] })
      const post = (name: string) =>
        transport.post({
          url: new URL(`https://${name}:${server.port}/`),
          address: { address: '127.0.0.1', family: 4 },
          body: '{}',
          headers: {},
          timeoutMs: 5000,
          maxResponseBytes: MAX_RESPONSE_BYTES,
        })
      expect(await post('receiver.plikt-test.no')).toMatchObject({ kind: 'response', status: 200 })
      expect(await post('other.plikt-test.no')).toMatchObject({ kind: 'failed', errorClass: 'tls_error' })
    } finally {
      await server.stop()
    }
  })
})
