/**
 * What every sandbox route does before it answers, in this order: the knobs that need the
 * synthetic bearer, the knob values, the injected latency, the injected failures, the public-mirror
 * and reserved organisations, and finally the company itself.
 */
import { AppError } from '../../errors/app-error.ts'
import type { LocalDate } from '../../lib/local-date.ts'
import type { HandlerContext } from '../../pipeline/context.ts'
import {
  checkDateKnob,
  sandboxCaller,
  SANDBOX_TODAY,
  serviceSimulation,
  simulatedError,
  type SandboxState,
} from '../../pipeline/sandbox.ts'

export interface Knobs {
  simulate_error?: string
  simulate_latency?: number
  mock_date?: string
  as_of?: string
}

export interface Prelude {
  state: SandboxState
  namespace: string
  /** the date the sandbox takes as today for this answer (as_of, else mock_date, else 2026-01-01) */
  date: LocalDate
}

/**
 * The injected latency ends early when the client goes away: a slow request whose caller left
 * must not keep its public-mirror slot (the guard releases it when the handler returns).
 */
function sleepUnlessGone(ms: number, signal: AbortSignal): Promise<void> {
  if (signal.aborted) return Promise.resolve()
  return new Promise((resolve) => {
    const done = () => {
      clearTimeout(timer)
      signal.removeEventListener('abort', done)
      resolve()
    }
    const timer = setTimeout(done, ms)
    signal.addEventListener('abort', done, { once: true })
  })
}

function testKeyRequired(what: string): AppError {
  return new AppError('SANDBOX_TEST_KEY_REQUIRED', {
    extra: { knob: what, bearer_format: 'svc_sandbox_test_<suffix>' },
  })
}

/** `as_of` reaches only the routes whose query schema has it (obligations, deadlines, summary); elsewhere it is 400 before this runs. */
export async function prelude(ctx: HandlerContext): Promise<Prelude> {
  const state = ctx.state.sandbox!
  const caller = sandboxCaller(ctx.principal)
  const query = ctx.query as Knobs
  const simulate = ctx.headers.simulate
  if (simulate !== null && !caller.synthetic) throw testKeyRequired('X-Service-Simulate')
  if (query.as_of !== undefined && !caller.synthetic) throw testKeyRequired('as_of')
  const mockDate = checkDateKnob('mock_date', query.mock_date)
  const asOf = checkDateKnob('as_of', query.as_of)
  if (asOf) state.asOf = asOf
  if (query.simulate_latency) await sleepUnlessGone(query.simulate_latency, ctx.signal)
  if (simulate !== null) {
    const err = serviceSimulation(simulate)
    state.simulated = true
    throw err
  }
  if (query.simulate_error !== undefined) {
    state.simulated = true
    throw simulatedError(query.simulate_error)
  }
  return { state, namespace: caller.namespace, date: asOf ?? mockDate ?? SANDBOX_TODAY }
}
