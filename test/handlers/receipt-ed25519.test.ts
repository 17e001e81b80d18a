/**
 * Receipts a third party can trust (issue 31 item 11): every production receipt carries an Ed25519
 * signature that verifies with the published key alone, by the recipe's own code — the TypeScript
 * block of docs/receipt-signature.md is extracted and run here, against receipts the service
 * issued. Files 923609016 for 2026-T4 (delegation-helpers.ts lists the pairs each file takes).
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { createHash, createHmac, timingSafeEqual } from 'node:crypto'
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { startApp, type TestApp } from '../helpers.ts'
import { rotateReceiptKeys } from '../../src/domain/actions/receipt-keys.ts'
import { MVA, agent, delegatedAgent, receiptKey, requestFullmakt } from '../helpers.ts'
import { file as fileInSandbox, as, vat } from '../helpers.ts'
import { confirmedToken } from '../helpers.ts'

type Keys = { kid: string; x: string; valid_from: string; valid_until: string | null }[]
type Verify = (receipt: Record<string, unknown>, keys: Keys) => boolean

let app: TestApp
let verifyReceiptEd25519: Verify

/** The recipe's code block, as a reader copies it. */
async function recipeFromDocs(): Promise<Verify> {
  const doc = readFileSync(join(import.meta.dir, '../../docs/receipt-signature.md'), 'utf8')
  const block = /```ts\n(\/\/ verify-receipt-ed25519\.ts\n[\s\S]*?)```/.exec(doc)
  if (!block) throw new Error('docs/receipt-signature.md has no `// verify-receipt-ed25519.ts` block')
  const file = join(mkdtempSync(join(tmpdir(), 'plikt-recipe-')), 'verify-receipt-ed25519.ts')
  writeFileSync(file, block[1]!)
  return (await import(file)).verifyReceiptEd25519
}

beforeAll(async () => {
  app = await startApp()
  verifyReceiptEd25519 = await recipeFromDocs()
})
afterAll(() => app.stop())

async function publishedKeys(): Promise<Keys> {
  const res = await app.get('/.well-known/receipt-keys.json')
  expect(res.status).toBe(200)
  return (await res.json()).keys
}

/** docs/receipt-signature.md, the HMAC recipe: written from the document, not imported. */
function hmacVerifies(r: Record<string, string>, key: Buffer): boolean {
  const message = [
    'PLIKT-RECEIPT-v1',
    r.altinn_receipt_id,
    r.audit_log_id,
    r.org_number,
    r.filing_type,
    r.timestamp,
  ].join('\x1f')
  return (
    r.signature_algorithm === 'HMAC-SHA256-v1' &&
    timingSafeEqual(createHmac('sha256', key).update(message, 'utf8').digest(), Buffer.from(r.signature!, 'hex'))
  )
}

const ORG = '923609016'
let filed: { receipt: Record<string, any>; hmacKey: Buffer }

async function fileOnce() {
  if (filed) return filed
  const a = await delegatedAgent(app, ORG, [MVA])
  const body = {
    org_number: ORG,
    action_type: 'mva_melding',
    period: '2026-T4',
    payload: { total_revenue_nok: 125000, output_vat_nok: 31250 },
  }
  const { data: dry } = await (await app.send('POST', '/api/v1/actions/execute?dry_run=true', body, a.auth)).json()
  expect(dry.action_id).toMatch(/^act_/)
  // a person confirms the action on its page (issue 31, item 10), then the agent files
  const token = await confirmedToken(app, a, body)
  const res = await app.send('POST', '/api/v1/actions/execute', body, {
    ...a.auth,
    'idempotency-key': crypto.randomUUID(),
    'x-approval-token': token,
  })
  expect(res.status).toBe(200)
  filed = { receipt: (await res.json()).data.receipt, hmacKey: await receiptKey(app, a) }
  return filed
}

describe('GET /.well-known/receipt-keys.json', () => {
  test('is a JWK Set of Ed25519 keys with validity windows, the kid each key’s RFC 7638 thumbprint', async () => {
    const keys = await publishedKeys()
    expect(keys.length).toBeGreaterThan(0)
    for (const k of keys) {
      expect(k).toMatchObject({ kty: 'OKP', crv: 'Ed25519', use: 'sig', alg: 'EdDSA' })
      expect(Buffer.from(k.x, 'base64url')).toHaveLength(32)
      expect(k.kid).toBe(createHash('sha256').update(`{"crv":"Ed25519","kty":"OKP","x":"${k.x}"}`).digest('base64url'))
      expect(Number.isNaN(Date.parse(k.valid_from))).toBe(false)
    }
    expect(keys.filter((k) => k.valid_until === null)).toHaveLength(1)
  })

  test('answers without a key, cacheable for five minutes, and 304 to its own ETag', async () => {
    const res = await app.get('/.well-known/receipt-keys.json')
    expect(res.headers.get('cache-control')).toBe('public, max-age=300')
    const etag = res.headers.get('etag')!
    expect(etag).toStartWith('"')
    expect((await app.get('/.well-known/receipt-keys.json', { headers: { 'if-none-match': etag } })).status).toBe(304)
  })

  test('is listed in the capabilities document’s discovery block and in OpenAPI', async () => {
    const caps = (await (await app.get('/api/v1/capabilities')).json()).data
    expect(caps.discovery.receipt_keys).toBe('/.well-known/receipt-keys.json')
    const openapi = await (await app.get('/openapi.json')).json()
    expect(openapi.paths['/.well-known/receipt-keys.json'].get.operationId).toBe('getReceiptKeys')
  })
})

describe('a live filing’s receipt', () => {
  test('verifies with the published key by the recipe’s code, which needs nothing else', async () => {
    const { receipt } = await fileOnce()
    expect(receipt.signature_ed25519_key_id).toMatch(/^[A-Za-z0-9_-]{43}$/)
    expect(receipt.signature_ed25519).toMatch(/^[A-Za-z0-9_-]{86}$/)
    expect(verifyReceiptEd25519(receipt, await publishedKeys())).toBe(true)
    expect(verifyReceiptEd25519(JSON.parse(JSON.stringify(receipt)), await publishedKeys())).toBe(true)
  })

  test('keeps the HMAC-SHA256-v1 signature of the spec, verifying with the account’s receipt key', async () => {
    const { receipt, hmacKey } = await fileOnce()
    expect(receipt.signature_algorithm).toBe('HMAC-SHA256-v1')
    expect(receipt.signature).toMatch(/^[0-9a-f]{64}$/)
    expect(hmacVerifies(receipt, hmacKey)).toBe(true)
  })

  test('fails when any field is changed, including those the HMAC does not cover', async () => {
    const { receipt } = await fileOnce()
    const keys = await publishedKeys()
    expect(verifyReceiptEd25519({ ...receipt, org_number: '984661185' }, keys)).toBe(false)
    expect(verifyReceiptEd25519({ ...receipt, rule_version: '0.0.1' }, keys)).toBe(false)
    expect(
      verifyReceiptEd25519(
        { ...receipt, government_response_raw: { ...receipt.government_response_raw, status: 'REJECTED' } },
        keys,
      ),
    ).toBe(false)
    expect(verifyReceiptEd25519({ ...receipt, extra: 1 }, keys)).toBe(false)
    const { signature_ed25519: _gone, ...unsigned } = receipt
    expect(verifyReceiptEd25519(unsigned, keys)).toBe(false)
  })
})

describe('a delegation receipt', () => {
  test('verifies with the published key; a changed scope fails', async () => {
    const { data } = await (await requestFullmakt(app, await agent(app))).json()
    const r = data.signed_receipt
    const keys = await publishedKeys()
    expect(verifyReceiptEd25519(r, keys)).toBe(true)
    expect(verifyReceiptEd25519({ ...r, scopes: `${r.scopes} altinn:a-melding` }, keys)).toBe(false)
    expect(r.key_id).toStartWith('rk1_')
  })
})

describe('a sandbox receipt', () => {
  test('carries the public-key HMAC only: no Ed25519 signature stands on a receipt of nothing filed', async () => {
    const { data } = await fileInSandbox(app, vat(), as())
    expect(data.receipt.signature_algorithm).toBe('HMAC-SHA256-v1')
    expect(data.receipt.signature_ed25519).toBeUndefined()
    expect(data.receipt.signature_ed25519_key_id).toBeUndefined()
  })
})

describe('rotation', () => {
  // Last in the file: it moves this app's clock.
  test('a new key signs from its valid_from; the old key stays listed with its window and keeps verifying old receipts', async () => {
    const a = await agent(app)
    const before = (await (await requestFullmakt(app, a)).json()).data.signed_receipt
    const oldKeys = await publishedKeys()
    const at = app.clock.now().getTime()
    // the key signing now; on a PostgreSQL database reused across runs an earlier run's rotation may have announced a later one
    const current = oldKeys.find(
      (k) => Date.parse(k.valid_from) <= at && (k.valid_until === null || at < Date.parse(k.valid_until)),
    )!
    const open = oldKeys.find((k) => k.valid_until === null)!
    expect(before.signature_ed25519_key_id).toBe(current.kid)

    const validFrom = new Date(Math.max(at, Date.parse(open.valid_from)) + 60_000)
    const rotated = await rotateReceiptKeys(
      app.deps.sql,
      app.deps.serverKeys.receiptEd25519,
      validFrom,
      app.clock.now(),
    )
    if ('refused' in rotated) throw new Error(rotated.refused)
    expect(rotated.retired).toBe(open.kid)

    // announced, not yet signing
    const announced = await publishedKeys()
    expect(announced.find((k) => k.kid === open.kid)!.valid_until).toBe(validFrom.toISOString())
    expect(announced.find((k) => k.kid === rotated.kid)).toMatchObject({
      valid_from: validFrom.toISOString(),
      valid_until: null,
    })
    const stillOld = (await (await requestFullmakt(app, a)).json()).data.signed_receipt
    expect(stillOld.signature_ed25519_key_id).toBe(current.kid)

    app.clock.set(validFrom.toISOString())
    const after = (await (await requestFullmakt(app, a)).json()).data.signed_receipt
    expect(after.signature_ed25519_key_id).toBe(rotated.kid)
    const keys = await publishedKeys()
    expect(verifyReceiptEd25519(before, keys)).toBe(true)
    expect(verifyReceiptEd25519(stillOld, keys)).toBe(true)
    expect(verifyReceiptEd25519(after, keys)).toBe(true)
    // the old key does not vouch for a receipt of its successor's time
    expect(verifyReceiptEd25519({ ...after, signature_ed25519_key_id: current.kid }, keys)).toBe(false)
  })

  test('a rotation that would start in the past, or not after the announced key, is refused and changes nothing', async () => {
    const keys = await publishedKeys()
    const now = app.clock.now()
    const past = await rotateReceiptKeys(
      app.deps.sql,
      app.deps.serverKeys.receiptEd25519,
      new Date(now.getTime() - 60_000),
      now,
    )
    expect(past).toMatchObject({ refused: expect.stringContaining('in the past') })
    const open = keys.find((k) => k.valid_until === null)!
    const early = await rotateReceiptKeys(
      app.deps.sql,
      app.deps.serverKeys.receiptEd25519,
      new Date(Math.max(now.getTime(), Date.parse(open.valid_from))),
      now,
    )
    expect(early).toMatchObject({ refused: expect.stringContaining('later valid_from') })
    expect(await publishedKeys()).toEqual(keys)
  })
})
