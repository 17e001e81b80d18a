/** Anchors and proofs (domain/anchors), and the two verification recipes this service serves itself. */
import { inclusionProof, publicAnchors } from '../domain/anchors/anchor.ts'
import type { Handler } from '../pipeline/context.ts'
import { markdownDocument } from './discovery.ts'
import type * as S from '../schemas/anchors.ts'
// Embedded as text: the recipes the answers point to are served by the binary itself.
import ANCHOR_RECIPE from '../../docs/anchor-proof.md' with { type: 'text' }
import WEBHOOK_RECIPE from '../../docs/webhook-signature.md' with { type: 'text' }

const ANCHOR_DOC = markdownDocument(ANCHOR_RECIPE)
const WEBHOOK_DOC = markdownDocument(WEBHOOK_RECIPE)

export const anchorsHandlers = {
  listAnchors: (async ({ query, deps }) => ({ data: await publicAnchors(deps.sql, query.limit ?? 30) })) satisfies Handler<{ query: typeof S.AnchorsQuery }>,

  getAnchorProof: (async ({ params, deps }) => ({ data: await inclusionProof(deps.sql, params.snapshot_id.toLowerCase(), `${deps.config.baseUrl}/docs/anchor-proof`, deps.anchorProofs) })) satisfies Handler<{
    params: typeof S.ProofParams
  }>,

  getAnchorProofDocs: (() => ({ data: undefined, document: ANCHOR_DOC })) satisfies Handler,

  getWebhookDocs: (() => ({ data: undefined, document: WEBHOOK_DOC })) satisfies Handler,
}
