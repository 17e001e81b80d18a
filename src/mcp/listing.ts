/**
 * How tools/list describes a tool (MCP 2025-06-18): title, input and output schemas and the
 * behaviour hints hosts use to decide when to ask a person first — all derived from the tool's
 * registry entry, so an operation's tool is described the day it exists.
 */
import { Type, type TSchema } from '@sinclair/typebox'
import type { Tool as ListedTool, ToolAnnotations } from '@modelcontextprotocol/sdk/types.js'
import { allOperations, type Operation } from '../operations/index.ts'
import { SandboxMetadata } from '../schemas/sandbox.ts'
import { TrustMetadata } from '../schemas/common.ts'
import { toolEnvelope } from '../schemas/mcp.ts'
import { jsonSchema } from '../schemas/json-schema.ts'
import { rehearsable } from '../pipeline/rehearsal.ts'
import type { Tool } from './tools.ts'

/** Data sources that are Plikt itself; every other one is an outside system. */
const OWN_SOURCES = ['plikt', 'rulebook']

export function toolAnnotations(op: Operation): ToolAnnotations {
  const readOnly = op.safe
  return {
    readOnlyHint: readOnly,
    // A revoke, or a filing (it needs a person's approval token): declared on the operation.
    destructiveHint: !readOnly && op.destructive,
    // The same call again changes nothing more: a read; PUT and DELETE by their meaning; a write
    // that demands an idempotency key (the same arguments carry the same key, and replay).
    idempotentHint:
      readOnly || op.method === 'PUT' || op.method === 'DELETE' || op.errors.includes('IDEMPOTENCY_KEY_REQUIRED'),
    openWorldHint: (op.capability?.data_sources ?? []).some((s) => !OWN_SOURCES.includes(s)),
  }
}

/**
 * What `structuredContent` holds: the envelope around the REST twin's `data`. Under the sandbox
 * bearer a mirrored tool answers its sandbox mirror's data, and failures carry the sandbox `_meta`
 * (keyless tools still answer with production's).
 */
function outputSchema(tool: Tool, sandbox: boolean): TSchema {
  const mirror =
    sandbox && !tool.keyless && rehearsable(tool.operation)
      ? allOperations.find((o) => o.id === tool.operation.sandboxMirror)
      : undefined
  const result = mirror?.response ?? tool.operation.response ?? Type.Unknown()
  return toolEnvelope(result, sandbox ? Type.Union([TrustMetadata, SandboxMetadata]) : TrustMetadata)
}

export function listedTool(tool: Tool, sandbox: boolean): ListedTool {
  const op = tool.operation
  return {
    name: tool.name,
    title: op.capability?.name_en ?? op.summary,
    description: `${op.summary}.${op.description ? ` ${op.description}` : ''}`,
    inputSchema: { type: 'object' as const, ...jsonSchema(tool.input) },
    outputSchema: { type: 'object' as const, ...jsonSchema(outputSchema(tool, sandbox)) },
    annotations: toolAnnotations(op),
  }
}
