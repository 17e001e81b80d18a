import { registryEntries } from '../errors/registry.ts'
import { explain, resolveCode } from '../errors/explain.ts'
import type { Handler } from '../pipeline/context.ts'
import { precompute, type PrecomputedData } from '../pipeline/envelope.ts'
import type { ExplainBody } from '../schemas/common.ts'

/** The registry never changes while the process runs: serialise it once per base URL. */
const registryCache = new Map<string, PrecomputedData>()

function registryFor(baseUrl: string): PrecomputedData {
  let hit = registryCache.get(baseUrl)
  if (!hit) {
    hit = precompute({ errors: registryEntries(baseUrl) })
    registryCache.set(baseUrl, hit)
  }
  return hit
}

export const errorHandlers = {
  listErrors: (({ deps }) => ({
    data: undefined,
    precomputed: registryFor(deps.config.baseUrl),
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
