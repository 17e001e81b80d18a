import { expect, test } from 'bun:test'
import { findApprovalToken, insertApprovalToken, markApprovalTokenConsumed } from '../../src/store/approval-tokens.ts'
import { mintApprovalToken } from '../../src/domain/actions/approval.ts'
import { sha256Hex } from '../../src/lib/hash.ts'
import { PINNED_NOW, testDatabase } from '../helpers.ts'

const NOW = new Date(PINNED_NOW)
const LATER = new Date(NOW.getTime() + 60_000)
const ACTION = `act_${'a'.repeat(32)}`
const ns = () => `consumer:${crypto.randomUUID()}`

test('only the SHA-256 of a token is stored', async () => {
  const { sql } = await testDatabase()
  const namespace = ns()
  const { token } = await mintApprovalToken(sql, { namespace, org_number: '984661185', action_id: ACTION }, NOW, {
    confirmation: 'automatic',
  })
  const rows = await sql`select * from approval_tokens where namespace = ${namespace}`
  expect(rows).toHaveLength(1)
  expect(rows[0]!.token_hash).toBe(sha256Hex(token))
  expect(JSON.stringify(rows)).not.toContain(token.slice(4))
})

test('a token hash is found only in its own namespace', async () => {
  const { sql } = await testDatabase()
  const namespace = ns()
  const tokenHash = sha256Hex(crypto.randomUUID())
  const id = await insertApprovalToken(sql, {
    namespace,
    tokenHash,
    orgNumber: '984661185',
    actionId: ACTION,
    createdAt: NOW,
    expiresAt: LATER,
    confirmation: 'automatic',
    action: null,
  })
  expect((await findApprovalToken(sql, namespace, tokenHash))?.id).toBe(id)
  expect(await findApprovalToken(sql, ns(), tokenHash)).toBeNull()
})

test('a token hash is unique across namespaces', async () => {
  const { sql } = await testDatabase()
  const tokenHash = sha256Hex(crypto.randomUUID())
  await insertApprovalToken(sql, {
    namespace: ns(),
    tokenHash,
    orgNumber: '984661185',
    actionId: ACTION,
    createdAt: NOW,
    expiresAt: LATER,
    confirmation: 'automatic',
    action: null,
  })
  await expect(
    insertApprovalToken(sql, {
      namespace: ns(),
      tokenHash,
      orgNumber: '984661185',
      actionId: ACTION,
      createdAt: NOW,
      expiresAt: LATER,
      confirmation: 'automatic',
      action: null,
    }),
  ).rejects.toThrow(/unique|duplicate/i)
})

test('the database refuses a token that expires before it is created', async () => {
  const { sql } = await testDatabase()
  await expect(
    insertApprovalToken(sql, {
      namespace: ns(),
      tokenHash: sha256Hex(crypto.randomUUID()),
      orgNumber: '984661185',
      actionId: ACTION,
      createdAt: LATER,
      expiresAt: NOW,
      confirmation: 'automatic',
      action: null,
    }),
  ).rejects.toThrow(/check/i)
})

test('consumption records the time and happens once', async () => {
  const { sql } = await testDatabase()
  const namespace = ns()
  const tokenHash = sha256Hex(crypto.randomUUID())
  const id = await insertApprovalToken(sql, {
    namespace,
    tokenHash,
    orgNumber: '984661185',
    actionId: ACTION,
    createdAt: NOW,
    expiresAt: LATER,
    confirmation: 'automatic',
    action: null,
  })
  expect(await markApprovalTokenConsumed(sql, id, NOW)).toBe(true)
  expect(await markApprovalTokenConsumed(sql, id, NOW)).toBe(false)
  expect((await findApprovalToken(sql, namespace, tokenHash))?.consumed_at?.toISOString()).toBe(NOW.toISOString())
})
