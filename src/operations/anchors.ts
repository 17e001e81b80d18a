/** Daily Merkle anchors over the snapshot archive, inclusion proofs, and the recipes to check them. */
import * as S from '../schemas/anchors.ts'
import { CACHE, op, type Operation } from './define.ts'

export const anchorsOperations = [
  op({
    id: 'listAnchors',
    cache: CACHE.anchors,
    summaryNb: 'Daglige Merkle-ankre over arkivet av øyeblikksbilder (nyeste først)',
    method: 'GET',
    path: '/api/v1/public/anchors',
    category: 'A',
    format: 'envelope',
    tag: 'Anchors',
    summary: 'Daily Merkle anchors over the snapshot archive (newest first)',
    description:
      'One per UTC day, made ten minutes after the day ends: the RFC 6962 Merkle root over the SHA-256 of every upstream answer ' +
      'archived that day, the count, and an RFC 3161 timestamp of the root when a time-stamping authority is configured. Only ' +
      'hashes, dates and counts. Keep a root you care about: with an inclusion proof it shows later what a register said. ' +
      '`limit` 1 to 366, default 30.',
    request: { query: S.AnchorsQuery },
    response: S.AnchorList,
  }),
  op({
    id: 'getAnchorProof',
    cache: CACHE.anchors,
    summaryNb:
      'Inkluderingsbevis for et øyeblikksbilde (en `_meta.source_snapshot_id`) i ankeret for dagen det ble tatt',
    method: 'GET',
    path: '/api/v1/public/anchors/proofs/:snapshot_id',
    category: 'A',
    format: 'envelope',
    tag: 'Anchors',
    summary: 'Inclusion proof of a snapshot (a `_meta.source_snapshot_id`) in its day’s anchor',
    description:
      'The leaf, its index, the audit path and the anchor: recompute the root with the recipe at /docs/anchor-proof (a few lines ' +
      'of code, SHA-256 only) and compare it with the anchor you trust. 404 `NOT_FOUND` for an unknown id, and for a snapshot ' +
      'whose day is not anchored yet (`anchored_after` says when it will be).',
    request: { params: S.ProofParams },
    response: S.InclusionProof,
  }),
  op({
    id: 'getAnchorProofDocs',
    cache: CACHE.discovery,
    summaryNb: 'Slik verifiserer du et inkluderingsbevis (og ankerets RFC 3161-tidsstempel), som Markdown',
    method: 'GET',
    path: '/docs/anchor-proof',
    category: 'discovery',
    format: 'html',
    tag: 'Discovery',
    summary: 'How to verify an anchor inclusion proof (and an anchor’s RFC 3161 timestamp)',
    response: null,
  }),
  op({
    id: 'getWebhookDocs',
    cache: CACHE.discovery,
    summaryNb: 'Slik verifiserer du X-Service-Signature på en webhook, som Markdown',
    method: 'GET',
    path: '/docs/webhook-signature',
    category: 'discovery',
    format: 'html',
    tag: 'Discovery',
    summary: 'How to verify a webhook’s X-Service-Signature',
    response: null,
  }),
] as const satisfies readonly Operation[]
