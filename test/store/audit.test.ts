import { expect, test } from 'bun:test'
import { appendAudit, auditFor } from '../../src/store/audit.ts'
import { testDatabase } from '../helpers.ts'

test('the audit log takes appends and keeps them', async () => {
  const { sql } = await testDatabase()
  const consumer = crypto.randomUUID()
  await appendAudit(sql, {
    consumerId: consumer,
    actor: 'system',
    action: 'test_event',
    correlationId: 'audit-1',
    details: { n: 1, ok: true, note: null },
  })
  const rows = await auditFor(sql, consumer)
  expect(rows).toHaveLength(1)
  expect(rows[0]).toMatchObject({ actor: 'system', action: 'test_event', details: { n: 1, ok: true, note: null } })
})

test.each([
  ['UPDATE', (id: string) => `update audit_log set action = 'tampered' where consumer_id = '${id}'`],
  ['DELETE', (id: string) => `delete from audit_log where consumer_id = '${id}'`],
  ['TRUNCATE', () => 'truncate audit_log'],
])('the database refuses %s on the audit log', async (_name, statement) => {
  const { sql } = await testDatabase()
  const consumer = crypto.randomUUID()
  await appendAudit(sql, { consumerId: consumer, actor: 'system', action: 'kept', correlationId: null })
  await expect(sql.unsafe(statement(consumer))).rejects.toThrow(/append-only/)
  expect((await auditFor(sql, consumer)).map((r) => r.action)).toEqual(['kept'])
})
