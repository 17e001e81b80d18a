/**
 * Every write a browser session can make must carry the session's CSRF token: checked once, at
 * admission, for every such operation the registry has — so a new one is covered the day it exists.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { allOperations, type Operation } from '../../src/operations/index.ts'
import { startApp, type TestApp } from '../helpers.ts'
import { freshIp, signIn, type Session } from '../helpers.ts'

let app: TestApp
// A session of its own per operation: one of them (logout) ends the session it is sent with.
let session: Session
beforeAll(async () => {
  app = await startApp()
})
afterAll(() => app.stop())

const SESSION_WRITES = allOperations.filter(
  (op) => (op.auth === 'session' || op.auth === 'key_or_session') && op.method !== 'GET',
)
const ID = '00000000-0000-4000-8000-000000000000'

function send(op: Operation, csrf: { header?: string; field?: string }): Promise<Response> {
  const form = op.bodyType === 'form'
  const fields: Record<string, string> = csrf.field === undefined ? {} : { csrf_token: csrf.field }
  return fetch(app.url + op.path.replace(':id', ID), {
    method: op.method,
    redirect: 'manual',
    headers: {
      cookie: session.cookie,
      'content-type': form ? 'application/x-www-form-urlencoded' : 'application/json',
      ...(csrf.header === undefined ? {} : { 'x-csrf-token': csrf.header }),
      ...freshIp(),
    },
    body: form ? new URLSearchParams(fields).toString() : JSON.stringify(fields),
  })
}

async function expectCsrfRefusal(res: Response): Promise<void> {
  expect(res.status).toBe(400)
  const text = await res.text()
  expect(text).toContain('csrf_token')
  expect(text).toContain('does not belong to this session')
}

test('the registry has session writes to check', () => {
  expect(SESSION_WRITES.length).toBeGreaterThanOrEqual(10)
})

describe.each(SESSION_WRITES.map((op) => [op.id, op] as const))('%s', (_, op) => {
  beforeAll(async () => {
    session = await signIn(app)
  })

  test('without the token: refused', async () => {
    await expectCsrfRefusal(await send(op, {}))
  })

  test('with another session’s token: refused', async () => {
    await expectCsrfRefusal(await send(op, { header: 'x'.repeat(32), field: 'x'.repeat(32) }))
  })

  test('with the session’s token: admitted (whatever the handler then says)', async () => {
    const res = await send(op, { header: session.csrf, field: session.csrf })
    expect(await res.text()).not.toContain('does not belong to this session')
  })
})
