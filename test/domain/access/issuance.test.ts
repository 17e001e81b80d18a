import { expect, test } from 'bun:test'
import { mintIssuanceToken, redeemIssuanceToken } from '../../../src/domain/access/issuance.ts'
import { AppError } from '../../../src/errors/app-error.ts'
import { updateConsumer, upsertConsumer } from '../../../src/store/accounts.ts'
import { testDatabase } from '../../helpers.ts'

test('a deactivated account’s token fails like any unusable token, and no key is made', async () => {
  const { sql } = await testDatabase()
  const { consumer } = await upsertConsumer(sql, `inactive-${crypto.randomUUID()}@example.no`, null)
  const now = new Date()
  const { token } = await mintIssuanceToken(sql, consumer.id, now, { actor: 'test', correlationId: null })
  await updateConsumer(sql, consumer.id, { active: false })
  const err = await redeemIssuanceToken(sql, token, now, null).catch((e) => e)
  expect(err).toBeInstanceOf(AppError)
  expect((err as AppError).code).toBe('ISSUANCE_TOKEN_INVALID')
  expect((await sql`select count(*)::int as n from api_keys where consumer_id = ${consumer.id}`)[0]!.n).toBe(0)
  // Reactivated, the token (never consumed) still works.
  await updateConsumer(sql, consumer.id, { active: true })
  expect((await redeemIssuanceToken(sql, token, now, null)).plaintext_key).toMatch(/^svc_free_/)
})
