/**
 * The agent-readiness probe (spec: Agent-readiness probe): per workflow class, the success rate
 * and p95 latency this instance measured over its sliding window, or — until a class has enough
 * samples — a conservative static default, and the token service's breaker. Which of the two a
 * class reports is its `source`; `_meta.source` says it for the whole answer.
 */
import { EXECUTION_BUDGET_MS } from '../actions/production.ts'
import { READ_POLICY, type BreakerState } from '../../upstream/http.ts'
import type { mcpCounts } from '../discovery/mcp-offer.ts'

/** What an MCP host finds on the server (tools, resources, templates, prompts, completions): domain/discovery/mcp-offer.ts counts it. */
export type McpCounts = ReturnType<typeof mcpCounts>

/** The workflow classes an agent's calls fall into (pipeline/telemetry.ts sorts registry operations into them). */
export const WORKFLOW_CLASSES = ['public_reads', 'company_data', 'delegation_actions', 'sandbox', 'mcp'] as const
export type WorkflowClass = (typeof WORKFLOW_CLASSES)[number]

/** The sliding window: one bucket per minute, this many minutes. */
export const WINDOW_MINUTES = 15
/** Below this many requests of a class in the window, the class reports its static default. */
export const MIN_SAMPLES = 20

/** What the window holds for one class. `p95_ms`: the upper bound of the latency bucket the 95th percentile falls in. */
export interface ClassSample {
  samples: number
  failures: number
  p95_ms: number | null
}

/**
 * The defaults promise no more than the service's own budgets allow: a read of the registers may
 * take the whole upstream budget (three attempts within 8 s), a filing or delegation the execution
 * budget, and MCP carries either; answers computed from code and the sandbox's synthetic answers
 * come from the process alone. The success rates are deliberately below what the service aims at.
 */
export const STATIC_DEFAULTS: Record<WorkflowClass, { success_rate: number; p95_ms: number; description: string }> = {
  public_reads: {
    success_rate: 0.99,
    p95_ms: 1000,
    description:
      'Keyless reads and discovery documents: public deadlines and obligations, pricing, errors, exchange rates, company status.',
  },
  company_data: {
    success_rate: 0.95,
    p95_ms: READ_POLICY.budgetMs,
    description: 'Keyed, metered company reads from the registers.',
  },
  delegation_actions: {
    success_rate: 0.95,
    p95_ms: EXECUTION_BUDGET_MS,
    description: 'Permissions, delegation (system users, fullmakt), approval tokens, validation and filing.',
  },
  sandbox: {
    success_rate: 0.99,
    p95_ms: 1000,
    description: 'The sandbox and its public mirror: synthetic answers, rehearsed filings.',
  },
  mcp: {
    success_rate: 0.95,
    p95_ms: Math.max(READ_POLICY.budgetMs, EXECUTION_BUDGET_MS),
    description: 'The MCP server (every tool call travels in one JSON-RPC request).',
  },
}

export type ReadinessSource = 'telemetry' | 'static_defaults' | 'telemetry_and_static_defaults'

export function readinessReport(
  samples: Record<WorkflowClass, ClassSample>,
  tokenService: { state: BreakerState; mock: boolean },
  mcp: McpCounts,
) {
  const classes = WORKFLOW_CLASSES.map((name) => {
    const s = samples[name]
    const d = STATIC_DEFAULTS[name]
    const measured = s.samples >= MIN_SAMPLES && s.p95_ms !== null
    return {
      class: name,
      description: d.description,
      source: measured ? ('telemetry' as const) : ('static_default' as const),
      success_rate: measured ? Math.round(((s.samples - s.failures) / s.samples) * 10_000) / 10_000 : d.success_rate,
      p95_latency_ms: measured ? s.p95_ms! : d.p95_ms,
      samples: s.samples,
    }
  })
  const measured = classes.filter((c) => c.source === 'telemetry').length
  const source: ReadinessSource =
    measured === classes.length ? 'telemetry' : measured === 0 ? 'static_defaults' : 'telemetry_and_static_defaults'
  return {
    source,
    window_minutes: WINDOW_MINUTES,
    min_samples: MIN_SAMPLES,
    success_definition:
      'a request answered without a server error (status below 500); refusals of the caller’s own input, key or credits are answered as designed',
    scope: 'this instance, since it started or for the window, whichever is shorter',
    classes,
    token_service: { breaker_state: tokenService.state, mock: tokenService.mock },
    mcp,
  }
}
