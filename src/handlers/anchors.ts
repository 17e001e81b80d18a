/** Anchors and proofs (domain/anchors). The verification recipes are docs pages (http/discovery.ts). */
import { inclusionProof, publicAnchors } from '../domain/anchors/anchor.ts'
import type { Handler } from '../pipeline/context.ts'
import type * as S from '../schemas/anchors.ts'

export const anchorsHandlers = {
  listAnchors: (async ({ query, deps }) => ({
    data: await publicAnchors(deps.sql, query.limit ?? 30),
  })) satisfies Handler<{ query: typeof S.AnchorsQuery }>,

  getAnchorProof: (async ({ params, deps }) => ({
    data: await inclusionProof(
      deps.sql,
      params.snapshot_id.toLowerCase(),
      `${deps.config.baseUrl}/docs/anchor-proof`,
      deps.anchorProofs,
    ),
  })) satisfies Handler<{
    params: typeof S.ProofParams
  }>,
}
