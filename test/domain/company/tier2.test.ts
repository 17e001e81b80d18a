/** Which rulebook period a filing made through Plikt fills, as the Tier 2 summary sees it. */
import { afterAll, beforeAll, expect, test } from 'bun:test'
import { filedLookup } from '../../../src/domain/company/tier2.ts'
import { recordFiling } from '../../../src/store/delegations.ts'
import { createConsumer } from '../../helpers.ts'
import { startApp, type TestApp } from '../../helpers.ts'

let app: TestApp
beforeAll(async () => {
  app = await startApp()
}, 30_000)
afterAll(() => app.stop())

// an organisation no other test files for, so a shared database cannot answer for it
const ORG = '979797979'

test('a monthly VAT filing (mva_melding for YYYY-MM) fills that month of mva-manedlig, not a two-month term', async () => {
  const c = await createConsumer(app, 'enterprise')
  await recordFiling(app.deps.sql, {
    id: crypto.randomUUID(),
    consumerId: c.id,
    org: ORG,
    actionType: 'mva_melding',
    period: '2026-06',
    receiptId: 'R-1',
    instanceId: null,
    at: app.clock.now(),
  })
  const filed = await filedLookup(
    {
      sql: app.deps.sql,
      logger: app.deps.logger,
      filingPortal: { ...app.deps.filingPortal, instances: async () => [] },
    },
    ORG,
    app.clock.now(),
  )
  expect(filed('mva-manedlig', '2026-06')).toBe(true)
  expect(filed('mva-termin', '2026-06')).toBe(false)
  expect(filed('mva-termin', '2026-T3')).toBe(false)
})
