import { canonicalJson } from '../../../lib/canonical-json.ts'
import { sha256Hex } from '../../../lib/hash.ts'
import { registryEntries } from '../../../errors/registry.ts'
import { explain, resolveCode } from '../../../errors/explain.ts'
import type { Handler } from '../../context.ts'
import type { ExplainBody } from '../../../schemas/common.ts'

/** The registry never changes while the process runs: serialise and hash it once per base URL. */
const registryCache = new Map<string, { json: string; hash: string }>()

function registryFor(baseUrl: string) {
  let hit = registryCache.get(baseUrl)
  if (!hit) {
    const data = { errors: registryEntries(baseUrl) }
    hit = { json: JSON.stringify(data), hash: `sha256:${sha256Hex(canonicalJson(data))}` }
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
