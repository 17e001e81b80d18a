import { expect, test } from 'bun:test'
import { precompute, precomputedBlob, precomputedBody, responseHash } from '../../src/pipeline/envelope.ts'

const decode = (b: Uint8Array) => JSON.parse(new TextDecoder().decode(b))
const data = { greeting: 'hei på deg', n: [1, 2, 3] }

test('a precomputed body is the success envelope with data, its hash and this response’s _meta', () => {
  const body = decode(
    precomputedBody(precompute(data), { served_from: 'static' }, new Date('2026-05-17T10:00:00.123Z')),
  )
  expect(body.success).toBe(true)
  expect(body.data).toEqual(data)
  expect(body._meta.response_hash).toBe(responseHash(data))
  expect(body._meta.response_timestamp).toBe('2026-05-17T10:00:00.123Z')
  expect(body._meta.served_from).toBe('static')
})

test('a body is reused only within the same millisecond and the same _meta input', () => {
  const p = precompute(data)
  const t = new Date('2026-05-17T10:00:00.123Z')
  const a = precomputedBody(p, { served_from: 'static', data_freshness: new Date('2026-01-01T00:00:00Z') }, t)
  expect(
    precomputedBody(p, { served_from: 'static', data_freshness: new Date('2026-01-01T00:00:00Z') }, new Date(t)),
  ).toBe(a)
  const later = decode(
    precomputedBody(
      p,
      { served_from: 'static', data_freshness: new Date('2026-01-01T00:00:00Z') },
      new Date(t.getTime() + 1),
    ),
  )
  expect(later._meta.response_timestamp).toBe('2026-05-17T10:00:00.124Z')
  const otherMeta = decode(
    precomputedBody(
      p,
      { served_from: 'static', data_freshness: new Date('2026-02-01T00:00:00Z') },
      new Date(t.getTime() + 1),
    ),
  )
  expect(otherMeta._meta.data_freshness).toBe('2026-02-01T00:00:00.000Z')
  const fewerKeys = decode(precomputedBody(p, { served_from: 'static' }, new Date(t.getTime() + 1)))
  expect(fewerKeys._meta.data_freshness).toBe('2026-05-17T10:00:00.124Z')
})

test('the Blob of a precomputed body holds the same bytes, and is made once per body built', async () => {
  const p = precompute(data)
  const t = new Date('2026-05-17T10:00:00.123Z')
  const blob = precomputedBlob(p, { served_from: 'static' }, t)
  expect(Buffer.from(await blob.arrayBuffer()).equals(precomputedBody(p, { served_from: 'static' }, t))).toBe(true)
  expect(precomputedBlob(p, { served_from: 'static' }, new Date(t))).toBe(blob)
  const later = precomputedBlob(p, { served_from: 'static' }, new Date(t.getTime() + 1))
  expect(later).not.toBe(blob)
  expect(decode(new Uint8Array(await later.arrayBuffer()))._meta.response_timestamp).toBe('2026-05-17T10:00:00.124Z')
})
