/**
 * Request telemetry for the agent-readiness probe, kept in this instance's memory: per workflow
 * class, a ring of one bucket per minute over the sliding window, each counting requests, server
 * errors and a fixed latency histogram. Recording (at the edge, http/server.ts) is a map lookup and
 * a few typed-array increments — no allocation, no database write; a bucket whose minute has passed
 * is zeroed when it is next written or skipped when read.
 */
import {
  WINDOW_MINUTES,
  WORKFLOW_CLASSES,
  type ClassSample,
  type WorkflowClass,
} from '../domain/wellknown/readiness.ts'
import type { Operation } from '../operations/index.ts'

/** Latency bucket upper bounds, ms; the last catches everything slower. */
export const LATENCY_BOUNDS_MS = [
  5,
  10,
  25,
  50,
  100,
  250,
  500,
  1000,
  2500,
  5000,
  8000,
  10_000,
  30_000,
  Number.POSITIVE_INFINITY,
] as const

const MINUTE_MS = 60_000
const CLASSES = WORKFLOW_CLASSES.length
const BOUNDS = LATENCY_BOUNDS_MS.length

/** The workflow class of a registry operation, or null when it belongs to none (accounts, operator, pages). */
export function workflowClassOf(op: Operation): WorkflowClass | null {
  if (op.id === 'mcp') return 'mcp'
  if (op.category === 'sandbox') return 'sandbox'
  if (op.tag === 'Delegation and actions') return 'delegation_actions'
  if (op.tag === 'Company data') return 'company_data'
  if ((op.category === 'A' || op.category === 'discovery') && op.auth === 'none' && op.safe) return 'public_reads'
  return null
}

export class RequestTelemetry {
  private readonly classOf = new Map<string, number>()
  /** the minute (ms since epoch / 60 000) each bucket counts; -1: never written */
  private readonly stamp = new Float64Array(CLASSES * WINDOW_MINUTES).fill(-1)
  private readonly total = new Uint32Array(CLASSES * WINDOW_MINUTES)
  private readonly failed = new Uint32Array(CLASSES * WINDOW_MINUTES)
  private readonly histogram = new Uint32Array(CLASSES * WINDOW_MINUTES * BOUNDS)

  constructor(operations: readonly Operation[]) {
    for (const op of operations) {
      const c = workflowClassOf(op)
      if (c !== null) this.classOf.set(op.id, WORKFLOW_CLASSES.indexOf(c))
    }
  }

  record(operationId: string | null, status: number, ms: number, nowMs: number): void {
    if (operationId === null) return
    const c = this.classOf.get(operationId)
    if (c === undefined) return
    const minute = Math.floor(nowMs / MINUTE_MS)
    const b = c * WINDOW_MINUTES + (minute % WINDOW_MINUTES)
    if (this.stamp[b] !== minute) {
      this.stamp[b] = minute
      this.total[b] = 0
      this.failed[b] = 0
      this.histogram.fill(0, b * BOUNDS, (b + 1) * BOUNDS)
    }
    this.total[b]!++
    if (status >= 500) this.failed[b]!++
    let i = 0
    while (ms > LATENCY_BOUNDS_MS[i]!) i++
    this.histogram[b * BOUNDS + i]!++
  }

  /** Each class over the minutes of the window ending now (the current minute included). */
  snapshot(nowMs: number): Record<WorkflowClass, ClassSample> {
    const current = Math.floor(nowMs / MINUTE_MS)
    const out = {} as Record<WorkflowClass, ClassSample>
    const counts = new Array<number>(BOUNDS)
    for (let c = 0; c < CLASSES; c++) {
      let samples = 0
      let failures = 0
      counts.fill(0)
      for (let m = 0; m < WINDOW_MINUTES; m++) {
        const b = c * WINDOW_MINUTES + m
        if (this.stamp[b]! < 0 || current - this.stamp[b]! >= WINDOW_MINUTES || this.stamp[b]! > current) continue
        samples += this.total[b]!
        failures += this.failed[b]!
        for (let i = 0; i < BOUNDS; i++) counts[i]! += this.histogram[b * BOUNDS + i]!
      }
      out[WORKFLOW_CLASSES[c]!] = {
        samples,
        failures,
        p95_ms: samples === 0 ? null : percentileBound(counts, samples, 0.95),
      }
    }
    return out
  }
}

/** The upper bound of the bucket the quantile falls in; the open last bucket reports the largest finite bound, as "at least". */
function percentileBound(counts: number[], samples: number, q: number): number {
  const rank = Math.ceil(samples * q)
  let seen = 0
  for (let i = 0; i < counts.length; i++) {
    seen += counts[i]!
    if (seen >= rank)
      return Number.isFinite(LATENCY_BOUNDS_MS[i]!) ? LATENCY_BOUNDS_MS[i]! : LATENCY_BOUNDS_MS[BOUNDS - 2]!
  }
  return LATENCY_BOUNDS_MS[BOUNDS - 2]!
}
