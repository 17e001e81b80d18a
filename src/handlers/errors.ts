import { registryEntries } from '../errors/registry.ts'
import { explain, resolveCode } from '../errors/explain.ts'
import { ExplainToolInput } from '../schemas/common.ts'
import type { AppDeps, Handler, ToolBinding } from '../pipeline/context.ts'
import { precompute } from '../pipeline/envelope.ts'
import { perInstance } from '../pipeline/caching.ts'
import type { ExplainBody } from '../schemas/common.ts'

/** The registry never changes while the process runs: serialised once per instance. */
const registry = perInstance('error-registry', (deps: AppDeps) =>
  precompute({ errors: registryEntries(deps.config.baseUrl) }),
)

export const errorHandlers = {
  listErrors: (({ deps }) => ({
    data: undefined,
    precomputed: registry(deps),
    meta: { served_from: 'static', data_freshness: deps.startedAt },
  })) satisfies Handler,

  explainError: (({ body, deps }) => {
    const code = resolveCode(body.error_code)
    return {
      data: {
        explanation: { ...explain(code, body.context ?? {}), error_code: code },
        requested_error_code: body.error_code,
        catalogued: code !== 'UNKNOWN' || body.error_code.trim().toUpperCase() === 'UNKNOWN',
      },
      meta: { served_from: 'static', data_freshness: deps.startedAt },
    }
  }) satisfies Handler<{ body: typeof ExplainBody }>,
}

export const errorTools: Record<string, ToolBinding> = {
  explainError: {
    input: ExplainToolInput,
    toInput: (a: {
      error_code: string
      context_org_number?: string
      context_scope?: string
      context_role?: string
      context_field?: string
      context_upstream_system?: string
    }) => ({
      body: {
        error_code: a.error_code,
        context: {
          ...(a.context_org_number ? { org_number: a.context_org_number } : {}),
          ...(a.context_scope ? { scope: a.context_scope } : {}),
          ...(a.context_role ? { role: a.context_role } : {}),
          ...(a.context_field ? { field: a.context_field } : {}),
          ...(a.context_upstream_system ? { upstream_system: a.context_upstream_system } : {}),
        },
      },
    }),
    justification: () => 'From the service’s error catalogue; no upstream system was called.',
  },
}
