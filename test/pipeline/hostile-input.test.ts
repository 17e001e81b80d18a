/**
 * Hostile shapes sent to every operation of the registry: each must be answered with a 4xx (or a
 * success), never a 500. Found by the security review (issue 19, Low 11): a malformed session
 * cookie, an id that passes a loose pattern but is no UUID, and a body nested 20 000 levels deep.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { allOperations, type Operation } from '../../src/operations/index.ts'
import { startApp, type TestApp } from '../helpers.ts'
import { addCredits, admin, bearer, createConsumer, createKey, freshIp, postForm, signIn } from '../helpers.ts'

let app: TestApp
let key: string
beforeAll(async () => {
  app = await startApp()
  const c = await createConsumer(app, 'enterprise')
  await addCredits(app, c.id, 100_000)
  key = (await createKey(app, c.id)).key
})
afterAll(() => app.stop())

const PLAUSIBLE: Record<string, string> = { org: '984661185', id: '00000000-0000-4000-8000-000000000000' }
const pathOf = (op: Operation, value?: string) =>
  op.path.replace(/:(\w+)/g, (_, name: string) => value ?? PLAUSIBLE[name]!)

function deepJson(levels: number): string {
  return '['.repeat(levels) + ']'.repeat(levels)
}

function send(op: Operation, path: string, headers: Record<string, string>, body?: string): Promise<Response> {
  const withBody = op.method !== 'GET' && op.method !== 'DELETE'
  return fetch(app.url + path, {
    method: op.method,
    redirect: 'manual',
    headers: {
      ...freshIp(),
      ...(withBody
        ? { 'content-type': op.bodyType === 'form' ? 'application/x-www-form-urlencoded' : 'application/json' }
        : {}),
      ...headers,
    },
    ...(withBody ? { body: body ?? '{}' } : {}),
  })
}

async function expectNo5xx(op: Operation, res: Response): Promise<void> {
  const text = await res.text()
  expect({
    op: op.id,
    status: res.status < 500 ? 'not 5xx' : res.status,
    text: res.status < 500 ? '' : text.slice(0, 200),
  }).toEqual({ op: op.id, status: 'not 5xx', text: '' })
}

describe('a session cookie that is not valid percent-encoding', () => {
  test.each(allOperations.map((op) => [op.id, op] as const))('%s, with a valid key as well', async (_, op) => {
    await expectNo5xx(op, await send(op, pathOf(op), { cookie: 'plikt_session=%E0%A4%A', ...bearer(key) }))
  })

  test('is treated as no session at all: a key-or-session route answers for the key', async () => {
    const res = await app.get('/api/v1/account/usage', {
      headers: { cookie: 'plikt_session=%E0%A4%A', ...bearer(key) },
    })
    expect(res.status).toBe(200)
  })
})

describe('an id of 36 dashes (the shape of a UUID, not one)', () => {
  const withIds = allOperations.filter((op) => op.path.includes(':id'))
  test.each(withIds.map((op) => [op.id, op] as const))('%s', async (_, op) => {
    await expectNo5xx(op, await send(op, pathOf(op, '-'.repeat(36)), { ...admin }))
  })

  test('the consent page refuses it, to a signed-in owner, as invalid input', async () => {
    const session = await signIn(app)
    const page = await app.get(`/oauth/consent?connection=${'-'.repeat(36)}`, {
      headers: { cookie: session.cookie },
      redirect: 'manual',
    })
    expect(page.status).toBe(400)
    const approve = await postForm(
      app,
      '/oauth/consent',
      { connection: '-'.repeat(36), csrf_token: session.csrf },
      { cookie: session.cookie, origin: app.url },
    )
    expect(approve.status).toBe(400)
  })

  test.each(
    withIds.filter((op) => op.auth === 'session' || op.auth === 'key_or_session').map((op) => [op.id, op] as const),
  )('%s, signed in', async (_, op) => {
    const session = await signIn(app)
    const body = op.bodyType === 'form' ? `csrf_token=${session.csrf}` : '{}'
    await expectNo5xx(
      op,
      await send(
        op,
        pathOf(op, '-'.repeat(36)),
        { cookie: session.cookie, 'x-csrf-token': session.csrf, origin: app.url },
        body,
      ),
    )
  })
})

describe('a JSON body nested 20 000 levels deep', () => {
  const withJsonBodies = allOperations.filter((op) => op.request.body !== undefined && op.bodyType !== 'form')
  test.each(withJsonBodies.map((op) => [op.id, op] as const))('%s', async (_, op) => {
    await expectNo5xx(
      op,
      await send(
        op,
        pathOf(op),
        { ...bearer(key), 'idempotency-key': crypto.randomUUID() },
        `{"payload":${deepJson(20_000)}}`,
      ),
    )
  })

  test('is refused as VALIDATION_FAILED naming the depth', async () => {
    const res = await app.send(
      'POST',
      '/api/v1/explain',
      { error_code: 'NOT_FOUND', context: JSON.parse(deepJson(100)) },
      freshIp(),
    )
    expect(res.status).toBe(400)
    expect((await res.json()).explanation.details).toEqual([
      { field: 'body', message: 'is nested deeper than 32 levels' },
    ])
  })

  test('a sandbox action payload that deep is refused before anything is planned', async () => {
    const res = await app.send(
      'POST',
      '/api/v1/sandbox/actions/plan',
      { org_number: '999660001', action_type: 'submit_vat_return', payload: JSON.parse(deepJson(20_000)) },
      { authorization: 'Bearer svc_sandbox_test_hostile', ...freshIp() },
    )
    expect(res.status).toBe(400)
  })
})
