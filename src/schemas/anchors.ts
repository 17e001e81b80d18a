/** Daily Merkle anchors and inclusion proofs (public). */
import { Type } from '@sinclair/typebox'
import { Uuid } from './common.ts'

const Hex64 = Type.String({ pattern: '^[0-9a-f]{64}$' })

export const Anchor = Type.Object(
  {
    day: Type.String({ format: 'date', description: 'the UTC day whose snapshots the tree covers' }),
    root: Type.String({
      pattern: '^[0-9a-f]{64}$',
      description: 'hex Merkle root (RFC 6962 over SHA-256); of an empty day, SHA-256 of nothing',
    }),
    leaf_count: Type.Integer({ minimum: 0 }),
    tree: Type.Literal('rfc6962-sha256'),
    created_at: Type.String({ format: 'date-time' }),
    timestamp: Type.Union(
      [
        Type.Object({
          format: Type.Literal('rfc3161'),
          tsa_url: Type.String(),
          gen_time: Type.String({ format: 'date-time' }),
          token_base64: Type.String({
            description:
              'DER TimeStampToken over the root; `openssl ts -verify -digest <root> -in token.tsr -token_in -CAfile <tsa ca>`',
          }),
        }),
        Type.Null(),
      ],
      { description: 'null when no time-stamping authority is configured, or it has not answered yet' },
    ),
  },
  { title: 'Anchor' },
)

export const AnchorsQuery = Type.Object(
  { limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 366, description: 'default 30' })) },
  { additionalProperties: false },
)

export const AnchorList = Type.Object({ anchors: Type.Array(Anchor, { description: 'newest day first' }) })

export const ProofParams = Type.Object({
  snapshot_id: Uuid('a `_meta.source_snapshot_id` (or a change row’s `source_snapshot_id`)'),
})

export const InclusionProof = Type.Object({
  snapshot_id: Type.String({ format: 'uuid' }),
  content_sha256: Hex64,
  fetched_at: Type.String({ description: 'UTC with microseconds, exactly as the leaf commits to it' }),
  leaf_data: Type.String({ description: '`plikt-snapshot-v1|<snapshot_id>|<content_sha256>|<fetched_at>`' }),
  leaf_hash: Hex64,
  leaf_index: Type.Integer({ minimum: 0 }),
  tree_size: Type.Integer({ minimum: 1 }),
  audit_path: Type.Array(Hex64, { description: 'sibling hashes from the leaf up (RFC 9162 §2.1.3.2 verifies them)' }),
  anchor: Anchor,
  recipe_url: Type.String({ description: 'the verification recipe, with code' }),
})
