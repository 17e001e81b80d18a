/** The operator's account changes and their audit rows commit together or not at all. */
import { afterAll, beforeAll, expect, test } from 'bun:test'
import { createConsumer, updateConsumer } from '../../../src/domain/access/consumers.ts'
import type { Sql } from '../../../src/store/db.ts'
import { testDatabase } from '../../helpers.ts'
import { uniqueEmail } from '../../helpers.ts'

let sql: Sql
// An audit log that refuses rows of one correlation id: the failure arrives after the account write.
const FAILING = `audit-fails-${crypto.randomUUID()}`
beforeAll(async () => {
  sql = (await testDatabase()).sql
  await sql.unsafe(`create or replace function test_refuse_audit() returns trigger language plpgsql as $$
    begin if new.correlation_id = '${FAILING}' then raise exception 'audit log unavailable'; end if; return new; end $$`)
  await sql.unsafe(
    'create trigger test_refuse_audit before insert on audit_log for each row execute function test_refuse_audit()',
  )
})
afterAll(async () => {
  await sql.unsafe('drop trigger if exists test_refuse_audit on audit_log')
  await sql.unsafe('drop function if exists test_refuse_audit()')
})

const count = async (email: string) =>
  (await sql<{ n: number }[]>`select count(*)::int as n from consumers where email = ${email}`)[0]!.n

test('a created account is audited in the same transaction', async () => {
  const email = uniqueEmail('op')
  const { consumer, created } = await createConsumer(
    sql,
    { email, companyName: 'Drift AS', tier: 'starter' },
    { actor: 'admin', correlationId: crypto.randomUUID() },
  )
  expect(created).toBe(true)
  const rows = await sql`select action, actor from audit_log where consumer_id = ${consumer.id}`
  expect(rows.map((r) => [r.action, r.actor])).toEqual([['consumer_created', 'admin']])
})

test('when the audit row cannot be written, no account is created', async () => {
  const email = uniqueEmail('op')
  await expect(
    createConsumer(sql, { email, companyName: null, tier: 'free' }, { actor: 'admin', correlationId: FAILING }),
  ).rejects.toThrow()
  expect(await count(email)).toBe(0)
})

test('when the audit row cannot be written, the tier does not change', async () => {
  const { consumer } = await createConsumer(
    sql,
    { email: uniqueEmail('op'), companyName: null, tier: 'free' },
    { actor: 'admin', correlationId: crypto.randomUUID() },
  )
  await expect(
    updateConsumer(sql, consumer.id, { tier: 'enterprise' }, { actor: 'admin', correlationId: FAILING }),
  ).rejects.toThrow()
  const [row] = await sql<{ tier: string }[]>`select tier from consumers where id = ${consumer.id}`
  expect(row!.tier).toBe('free')
})
