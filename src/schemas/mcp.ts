/**
 * The MCP tool envelope, `structuredContent` of every tools/call answer: `{result, justification,
 * metadata, _meta}`. A tool's outputSchema is this envelope around its own result schema, so it is
 * an object schema (as MCP requires) whatever shape the result has.
 */
import { Type, type TSchema } from '@sinclair/typebox'

export const ToolMetadata = Type.Object(
  {
    tool: Type.String(),
    operation_id: Type.Optional(
      Type.String({
        description: 'the registry operation that answered (under the sandbox bearer, the sandbox mirror)',
      }),
    ),
    correlation_id: Type.Optional(Type.String()),
    idempotent_replayed: Type.Optional(
      Type.Literal(true, { description: 'a retry with the same `idempotency_key` got the first answer again' }),
    ),
    error_code: Type.Optional(Type.String({ description: 'on a failure: a code of GET /api/v1/errors' })),
    retryable: Type.Optional(Type.Boolean()),
    remediation: Type.Optional(
      Type.Object({}, { additionalProperties: true, description: 'fix hints, `docs_url` and the full explanation' }),
    ),
  },
  {
    additionalProperties: true,
    description: 'on a failure, also the members the error code adds (e.g. `top_up_url`, `balance_ore`, `cost_ore`)',
  },
)

/** `result` is the tool's answer, or null when the call failed (`isError`, with `metadata.error_code`). */
export function toolEnvelope(result: TSchema, meta: TSchema): TSchema {
  return Type.Object({
    result: Type.Union([result, Type.Null()]),
    justification: Type.String(),
    metadata: ToolMetadata,
    _meta: meta,
    _sandbox_marker: Type.Optional(
      Type.Literal('SANDBOX_NOT_REAL_GOV_RESPONSE', {
        description: 'a sandbox live execute: the receipt is not a real filing',
      }),
    ),
    execution_guarantee: Type.Optional(
      Type.Literal('nothing_submitted', { description: 'a failed sandbox write: nothing reached a government system' }),
    ),
    outcome: Type.Optional(
      Type.Object(
        {
          submitted: Type.Literal(false),
          status: Type.Union([Type.Literal('not_attempted'), Type.Literal('rejected')]),
          approval_token_consumed: Type.Boolean(),
        },
        { description: 'a failed sandbox write: whether its approval token was spent before it failed' },
      ),
    ),
  })
}
