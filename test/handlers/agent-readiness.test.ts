/** GET /api/v1/health/agent-readiness: telemetry per workflow class, static defaults until enough samples, the breaker. */
import { afterEach, expect, test } from 'bun:test'
import { Value } from '@sinclair/typebox/value'
import { AgentReadiness } from '../../src/schemas/wellknown.ts'
import { MIN_SAMPLES, STATIC_DEFAULTS, WINDOW_MINUTES } from '../../src/domain/wellknown/readiness.ts'
import { startApp, type TestApp } from '../helpers.ts'
import { connectMcp } from '../helpers.ts'
import { bearer, createConsumer, createKey } from '../helpers.ts'

let app: TestApp | undefined
afterEach(async () => {
  await app?.stop()
  app = undefined
})

const readiness = async (a: TestApp) => {
  const res = await a.get('/api/v1/health/agent-readiness')
  expect(res.status).toBe(200)
  return res.json()
}
type ClassRow = { class: string; source: string; samples: number; success_rate: number; p95_latency_ms: number }
const classOf = (body: { data: { classes: ClassRow[] } }, name: string) =>
  body.data.classes.find((c) => c.class === name)!

test('a fresh instance answers every class from its static defaults, and says so in _meta.source', async () => {
  app = await startApp()
  const body = await readiness(app)
  expect(Value.Check(AgentReadiness, body.data)).toBe(true)
  expect(body._meta.source).toBe('plikt:static-defaults')
  expect(body.data.source).toBe('static_defaults')
  expect(classOf(body, 'company_data')).toMatchObject({
    source: 'static_default',
    success_rate: STATIC_DEFAULTS.company_data.success_rate,
    p95_latency_ms: STATIC_DEFAULTS.company_data.p95_ms,
    samples: 0,
  })
  expect(body.data.min_samples).toBe(MIN_SAMPLES)
})

test('a class with enough requests in the window reports its measured success rate and p95', async () => {
  app = await startApp()
  for (let i = 0; i < MIN_SAMPLES; i++)
    expect((await app.get('/api/v1/public/obligations?entity_type=AS')).status).toBe(200)
  const body = await readiness(app)
  // The probe's own earlier requests are public reads too: at least the twenty above.
  const reads = classOf(body, 'public_reads')
  expect(reads).toMatchObject({ source: 'telemetry', success_rate: 1 })
  expect(reads.samples).toBeGreaterThanOrEqual(MIN_SAMPLES)
  expect(body._meta.source).toBe('plikt:telemetry+static-defaults')
  expect(classOf(body, 'sandbox').source).toBe('static_default')
})

test('measurements older than the window fall back to the static defaults', async () => {
  app = await startApp()
  for (let i = 0; i < MIN_SAMPLES; i++) await app.get('/api/v1/public/obligations?entity_type=AS')
  app.clock.advance(WINDOW_MINUTES * 60_000)
  const body = await readiness(app)
  expect(classOf(body, 'public_reads')).toMatchObject({ source: 'static_default', samples: 0 })
})

test('the token service’s breaker state is reported as it is now', async () => {
  app = await startApp()
  expect((await readiness(app)).data.token_service).toEqual({ breaker_state: 'closed', mock: true })
  const real = app.deps.government.tokenService
  app.deps.government.tokenService = { ...real, mock: false, breakerState: () => 'open' }
  expect((await readiness(app)).data.token_service).toEqual({ breaker_state: 'open', mock: false })
})

test('it counts what an MCP host finds: as many tools, resources, templates and prompts as a host with a key lists', async () => {
  app = await startApp()
  const body = await readiness(app)
  const keyless = await connectMcp(app)
  const resources = (await keyless.listResources()).resources.length
  const keylessTemplates = (await keyless.listResourceTemplates()).resourceTemplates.length
  const keylessTools = (await keyless.listTools()).tools.length
  const prompts = (await keyless.listPrompts()).prompts.length
  await keyless.close()
  const c = await createConsumer(app, 'enterprise')
  const keyed = await connectMcp(app, bearer((await createKey(app, c.id)).key))
  const templates = (await keyed.listResourceTemplates()).resourceTemplates.length
  await keyed.close()
  expect(body.data.mcp).toMatchObject({
    keyless_tools: keylessTools,
    resources,
    resource_templates: templates,
    keyless_resource_templates: keylessTemplates,
    prompts,
  })
  expect(body.data.mcp.prompts).toBeGreaterThan(0)
  expect(body.data.mcp.resource_templates).toBeGreaterThan(keylessTemplates)
})
