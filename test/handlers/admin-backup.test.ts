import { afterAll, beforeAll, expect, test } from 'bun:test'
import { ADMIN_TOKEN, onPostgres, startApp, type TestApp } from '../helpers.ts'

let app: TestApp
beforeAll(async () => {
  app = await startApp()
})
afterAll(() => app.stop())

test('without the operator token the backup is refused', async () => {
  const res = await app.send('POST', '/api/v1/admin/backup')
  expect(res.status).toBe(401)
})

test.skipIf(onPostgres)(
  'the embedded database answers a gzipped tarball of its data directory',
  async () => {
    const res = await app.send('POST', '/api/v1/admin/backup', undefined, { authorization: `Bearer ${ADMIN_TOKEN}` })
    expect(res.status).toBe(200)
    expect(res.headers.get('content-type')).toBe('application/gzip')
    const bytes = new Uint8Array(await res.arrayBuffer())
    expect([bytes[0], bytes[1]]).toEqual([0x1f, 0x8b])
  },
  60_000,
)

test.skipIf(!onPostgres)('on PostgreSQL the operator is pointed to pg_dump', async () => {
  const res = await app.send('POST', '/api/v1/admin/backup', undefined, { authorization: `Bearer ${ADMIN_TOKEN}` })
  expect(res.status).toBe(404)
  expect((await res.json()).reason).toContain('pg_dump')
})
