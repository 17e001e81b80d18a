import { expect, test } from 'bun:test'
import { sweepExpired } from '../../src/store/sweeps.ts'
import { insertApprovalToken } from '../../src/store/approval-tokens.ts'
import { appendSandboxAudit } from '../../src/store/sandbox-audit.ts'
import { sha256Hex } from '../../src/lib/hash.ts'
import { PINNED_NOW, testDatabase } from '../helpers.ts'

const NOW = new Date(PINNED_NOW)
const HOUR = 3600_000
const ACTION = `act_${'b'.repeat(32)}`

async function token(sql: Awaited<ReturnType<typeof testDatabase>>['sql'], expiresAt: Date): Promise<string> {
  const createdAt = new Date(expiresAt.getTime() - 15 * 60_000)
  return insertApprovalToken(sql, {
    namespace: `sandbox:${crypto.randomUUID()}`,
    tokenHash: sha256Hex(crypto.randomUUID()),
    orgNumber: '818000006',
    actionId: ACTION,
    createdAt,
    expiresAt,
    confirmation: 'automatic',
    action: null,
  })
}

test('approval tokens are deleted a day after they expire, not before', async () => {
  const { sql } = await testDatabase()
  const old = await token(sql, new Date(NOW.getTime() - 25 * HOUR))
  const recent = await token(sql, new Date(NOW.getTime() - 23 * HOUR))
  await sweepExpired(sql, NOW)
  expect(await sql`select 1 from approval_tokens where id = ${old}`).toHaveLength(0)
  expect(await sql`select 1 from approval_tokens where id = ${recent}`).toHaveLength(1)
})

test('sandbox audit rows are deleted thirty days after they were written', async () => {
  const { sql } = await testDatabase()
  const namespace = `sandbox:${crypto.randomUUID()}`
  const row = (id: string) => ({
    id,
    org_number: '818000006',
    occurred_at: NOW,
    action: 'approval_token.minted',
    initiated_by: 'sandbox_caller',
    details: {},
  })
  const [oldId, newId] = [crypto.randomUUID(), crypto.randomUUID()]
  await appendSandboxAudit(sql, namespace, row(oldId))
  await appendSandboxAudit(sql, namespace, row(newId))
  await sql`update sandbox_audit set created_at = ${new Date(NOW.getTime() - 31 * 24 * HOUR)} where id = ${oldId}`
  await sql`update sandbox_audit set created_at = ${new Date(NOW.getTime() - 29 * 24 * HOUR)} where id = ${newId}`
  await sweepExpired(sql, NOW)
  expect(
    (await sql<{ id: string }[]>`select id from sandbox_audit where namespace = ${namespace}`).map((r) => r.id),
  ).toEqual([newId])
})

test('queued mail is never swept; sent mail goes a day after it was sent, given-up mail a month after its last attempt', async () => {
  const { sql } = await testDatabase()
  const insert = async (status: string, sentAt: Date | null, nextAttemptAt: Date) =>
    (
      await sql<{ id: string }[]>`
        insert into mail_queue (to_email, subject, body_text, status, sent_at, next_attempt_at)
        values (${`sweep-${crypto.randomUUID()}@example.no`}, 's', '', ${status}, ${sentAt}, ${nextAttemptAt}) returning id`
    )[0]!.id
  const ago = (hours: number) => new Date(NOW.getTime() - hours * HOUR)
  const kept = [
    await insert('queued', null, ago(60 * 24)),
    await insert('sent', ago(23), ago(23)),
    await insert('failed', null, ago(29 * 24)),
  ]
  const gone = [await insert('sent', ago(25), ago(25)), await insert('failed', null, ago(31 * 24))]
  await sweepExpired(sql, NOW)
  const left = new Set(
    (await sql<{ id: string }[]>`select id from mail_queue where id in ${sql([...kept, ...gone])}`).map((r) => r.id),
  )
  expect(kept.every((id) => left.has(id))).toBe(true)
  expect(gone.some((id) => left.has(id))).toBe(false)
  await sql`delete from mail_queue where id in ${sql(kept)}`
})
