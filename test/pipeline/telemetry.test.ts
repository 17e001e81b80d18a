/** The in-memory request telemetry behind the agent-readiness probe: classes, window, failures, p95. */
import { expect, test } from 'bun:test'
import { allOperations } from '../../src/operations/index.ts'
import { RequestTelemetry, workflowClassOf } from '../../src/pipeline/telemetry.ts'
import { WINDOW_MINUTES } from '../../src/domain/wellknown/readiness.ts'
import { PINNED_NOW } from '../helpers.ts'

const T0 = new Date(PINNED_NOW).getTime()
const MINUTE = 60_000

test('registry operations fall into the workflow classes by their declarations', () => {
  const classOf = (id: string) => workflowClassOf(allOperations.find((o) => o.id === id)!)
  expect([
    classOf('getPublicDeadlines'),
    classOf('getCompanySummary'),
    classOf('executeAction'),
    classOf('getSandboxContext'),
    classOf('mcp'),
    classOf('adminCreateKey'),
  ]).toEqual(['public_reads', 'company_data', 'delegation_actions', 'sandbox', 'mcp', null])
})

test('a server error counts as a failure; a refusal of the caller’s input does not', () => {
  const t = new RequestTelemetry(allOperations)
  t.record('getCompanySummary', 200, 20, T0)
  t.record('getCompanySummary', 400, 2, T0)
  t.record('getCompanySummary', 503, 8000, T0)
  expect(t.snapshot(T0).company_data).toMatchObject({ samples: 3, failures: 1 })
})

test('requests of operations outside every class, and unmatched requests, are not counted', () => {
  const t = new RequestTelemetry(allOperations)
  t.record('adminCreateKey', 200, 5, T0)
  t.record(null, 404, 1, T0)
  const snap = t.snapshot(T0)
  expect(Object.values(snap).reduce((n, s) => n + s.samples, 0)).toBe(0)
})

test('the window keeps the last fifteen minutes and forgets what is older', () => {
  const t = new RequestTelemetry(allOperations)
  t.record('getPublicDeadlines', 200, 3, T0)
  t.record('getPublicDeadlines', 200, 3, T0 + 5 * MINUTE)
  expect(t.snapshot(T0 + (WINDOW_MINUTES - 1) * MINUTE).public_reads.samples).toBe(2)
  expect(t.snapshot(T0 + WINDOW_MINUTES * MINUTE).public_reads.samples).toBe(1)
  expect(t.snapshot(T0 + (WINDOW_MINUTES + 5) * MINUTE).public_reads.samples).toBe(0)
})

test('a bucket reused a window later starts from zero', () => {
  const t = new RequestTelemetry(allOperations)
  t.record('getPublicDeadlines', 500, 3, T0)
  t.record('getPublicDeadlines', 200, 3, T0 + WINDOW_MINUTES * MINUTE)
  expect(t.snapshot(T0 + WINDOW_MINUTES * MINUTE).public_reads).toEqual({ samples: 1, failures: 0, p95_ms: 5 })
})

test('p95 is the upper bound of the latency bucket the 95th percentile falls in', () => {
  const t = new RequestTelemetry(allOperations)
  for (let i = 0; i < 95; i++) t.record('getSandboxContext', 200, 4, T0)
  for (let i = 0; i < 5; i++) t.record('getSandboxContext', 200, 700, T0)
  expect(t.snapshot(T0).sandbox.p95_ms).toBe(5)
  t.record('getSandboxContext', 200, 700, T0)
  expect(t.snapshot(T0).sandbox.p95_ms).toBe(1000)
})
