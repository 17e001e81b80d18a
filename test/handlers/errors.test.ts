import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { CATALOGUE, ERROR_CODES, type CatalogueEntry } from '../../src/errors/catalogue/index.ts'
import { stableMeta, strongTag } from '../../src/pipeline/caching.ts'
import { startApp, testDatabase, type TestApp } from '../helpers.ts'

let app: TestApp
beforeAll(async () => {
  app = await startApp()
})
afterAll(() => app.stop())

describe('GET /api/v1/errors', () => {
  test('lists every catalogued code, sorted by code, with exactly the registry fields', async () => {
    const body = await (await app.get('/api/v1/errors')).json()
    const entries = body.data.errors
    expect(entries.map((e: { code: string }) => e.code)).toEqual([...ERROR_CODES].sort())
    for (const e of entries) {
      expect(Object.keys(e).sort()).toEqual(['category', 'code', 'docs_url', 'fix_hint_en', 'fix_hint_nb', 'retryable'])
      const c: CatalogueEntry = CATALOGUE[e.code as keyof typeof CATALOGUE]
      expect(e).toMatchObject({
        retryable: c.retryable,
        category: c.category,
        fix_hint_en: c.fix_hint_en,
        fix_hint_nb: c.fix_hint_nb,
      })
      expect(e.docs_url).toBe(`${app.config.baseUrl}/docs/errors#${e.code}`)
    }
    expect(body._meta.served_from).toBe('static')
  })

  test('sends a strong ETag of the data and the versions, the same on every response', async () => {
    const a = await app.get('/api/v1/errors')
    app.clock.advance(1000)
    const b = await app.get('/api/v1/errors')
    const etag = a.headers.get('etag')!
    expect(etag).toMatch(/^"[0-9a-f]{64}"$/)
    expect(b.headers.get('etag')).toBe(etag)
    const body = await a.json()
    expect(etag).toBe(strongTag(body._meta.response_hash, stableMeta({ served_from: 'static' })))
  })

  test('answers 304 with no body when If-None-Match matches', async () => {
    const etag = (await app.get('/api/v1/errors')).headers.get('etag')!
    for (const header of [etag, `"other", ${etag}`, `W/${etag}`, '*']) {
      const res = await app.get('/api/v1/errors', { headers: { 'if-none-match': header } })
      expect(res.status).toBe(304)
      expect(res.headers.get('etag')).toBe(etag)
      expect(await res.text()).toBe('')
    }
  })

  test('answers 200 when If-None-Match names another tag', async () => {
    const res = await app.get('/api/v1/errors', { headers: { 'if-none-match': '"0000"' } })
    expect(res.status).toBe(200)
  })
})

describe('POST /api/v1/explain', () => {
  const placeholderCode = (name: string) =>
    ERROR_CODES.find((c) => (CATALOGUE[c] as CatalogueEntry).explanation.summary.includes(`{${name}}`))

  test('returns the full bilingual explanation with the error code', async () => {
    const res = await app.post('/api/v1/explain', { error_code: 'AUTH_MISSING' })
    expect(res.status).toBe(200)
    const { explanation } = (await res.json()).data
    const c = CATALOGUE.AUTH_MISSING.explanation
    expect(explanation).toMatchObject({
      error_code: 'AUTH_MISSING',
      summary: c.summary,
      summary_en: c.summary_en,
      why: c.why,
      why_en: c.why_en,
    })
    expect(explanation.fix_steps).toEqual([...c.fix_steps])
    expect(explanation.fix_steps_en).toEqual([...c.fix_steps_en])
    expect('handover' in explanation && 'relevant_link' in explanation && 'legal_basis' in explanation).toBe(true)
  })

  test('substitutes the org number given in context', async () => {
    const code = placeholderCode('org_number')!
    expect(code).toBeDefined()
    const { explanation } = (
      await (await app.post('/api/v1/explain', { error_code: code, context: { org_number: '984661185' } })).json()
    ).data
    expect(explanation.summary).toContain('984661185')
    expect(explanation.summary).not.toContain('{org_number}')
  })

  test('takes a nine-digit JSON integer in context.org_number as the same digits', async () => {
    const code = placeholderCode('org_number')!
    const res = await app.post('/api/v1/explain', { error_code: code, context: { org_number: 984661185 } })
    expect(res.status).toBe(200)
    expect((await res.json()).data.explanation.summary).toContain('984661185')
  })

  test('uses a neutral noun when a context value is missing', async () => {
    const code = placeholderCode('org_number')!
    const { explanation } = (await (await app.post('/api/v1/explain', { error_code: code })).json()).data
    expect(explanation.summary).toContain('organisasjonen')
    expect(explanation.summary_en).not.toMatch(/\{[a-z_]+\}/)
  })

  test.each(['scope', 'field', 'role', 'upstream_system'])('substitutes %s anywhere it is used', async (name) => {
    const code = ERROR_CODES.find((c) => JSON.stringify(CATALOGUE[c]).includes(`{${name}}`))!
    expect(code).toBeDefined()
    const value = `ctx-${name}-value`
    const { explanation } = (
      await (await app.post('/api/v1/explain', { error_code: code, context: { [name]: value } })).json()
    ).data
    expect(JSON.stringify(explanation)).toContain(value)
    expect(JSON.stringify(explanation)).not.toContain(`{${name}}`)
  })

  test('matches the code case-insensitively', async () => {
    const { data } = await (await app.post('/api/v1/explain', { error_code: 'auth_missing' })).json()
    expect(data.explanation.error_code).toBe('AUTH_MISSING')
    expect(data.catalogued).toBe(true)
  })

  test('degrades an uncatalogued code to UNKNOWN', async () => {
    const res = await app.post('/api/v1/explain', { error_code: 'NO_SUCH_CODE' })
    expect(res.status).toBe(200)
    const { data } = await res.json()
    expect(data.explanation.error_code).toBe('UNKNOWN')
    expect(data.explanation.summary).toBe(CATALOGUE.UNKNOWN.explanation.summary)
    expect(data.requested_error_code).toBe('NO_SUCH_CODE')
    expect(data.catalogued).toBe(false)
  })

  test('explains any text within the length bound, punctuation and all, as UNKNOWN (spec: a code outside the first set degrades)', async () => {
    for (const code of ['foo-bar', 'Feil: ukjent ø', 'a.b/c', ' ']) {
      const res = await app.post('/api/v1/explain', { error_code: code })
      expect([code, res.status]).toEqual([code, 200])
      const { data } = await res.json()
      expect(data.explanation.error_code).toBe('UNKNOWN')
      expect(data.requested_error_code).toBe(code)
    }
    expect((await app.post('/api/v1/explain', { error_code: 'x'.repeat(65) })).status).toBe(400)
  })

  test('keeps texts within the spec bounds even with 64-character context values', async () => {
    const long = 'x'.repeat(64)
    for (const code of ERROR_CODES) {
      const { explanation } = (
        await (
          await app.post('/api/v1/explain', {
            error_code: code,
            context: { org_number: '123456785', role: long, scope: long, field: long, upstream_system: long },
          })
        ).json()
      ).data
      expect(explanation.summary.length).toBeLessThanOrEqual(140)
      expect(explanation.summary_en.length).toBeLessThanOrEqual(140)
      expect(explanation.why.length).toBeLessThanOrEqual(240)
      expect(explanation.why_en.length).toBeLessThanOrEqual(240)
    }
  })

  test.each([
    [{}, 'error_code'],
    [{ error_code: 42 }, 'error_code'],
    [{ error_code: '' }, 'error_code'],
    [{ error_code: 'A'.repeat(65) }, 'error_code'],
    [{ error_code: 'AUTH_MISSING', context: { org_number: '98466118' } }, 'context.org_number'],
    [{ error_code: 'AUTH_MISSING', context: { org_number: 98466118 } }, 'context.org_number'],
    [{ error_code: 'AUTH_MISSING', context: { org_number: 984661185.5 } }, 'context.org_number'],
    [{ error_code: 'AUTH_MISSING', context: { scope: '' } }, 'context.scope'],
    [{ error_code: 'AUTH_MISSING', context: { role: 'r'.repeat(65) } }, 'context.role'],
    [{ error_code: 'AUTH_MISSING', context: { orgnr: '984661185' } }, 'context.orgnr'],
    [{ error_code: 'AUTH_MISSING', context: 'org' }, 'context'],
    [{ error_code: 'AUTH_MISSING', extra: true }, 'extra'],
    [['AUTH_MISSING'], 'body'],
  ])('rejects %p with VALIDATION_FAILED on %s', async (body, field) => {
    const res = await app.post('/api/v1/explain', body)
    expect(res.status).toBe(400)
    const json = await res.json()
    expect(json.error_code).toBe('VALIDATION_FAILED')
    expect(json.explanation.details.map((d: { field: string }) => d.field)).toContain(field)
  })

  test('stores nothing', async () => {
    const { sql } = await testDatabase()
    const counts = async () => {
      const tables = await sql<
        { t: string }[]
      >`select table_name as t from information_schema.tables where table_schema = current_schema() and table_type = 'BASE TABLE' order by 1`
      const out: Record<string, number> = {}
      for (const { t } of tables) out[t] = (await sql.unsafe(`select count(*)::int as n from "${t}"`))[0]!.n
      return out
    }
    const before = await counts()
    await (
      await app.post('/api/v1/explain', { error_code: 'COMPANY_NOT_FOUND', context: { org_number: '984661185' } })
    ).arrayBuffer()
    expect(await counts()).toEqual(before)
  })
})
