/**
 * MCP resources and resource templates (ARCHITECTURE.md "MCP resources, prompts and completions"):
 * one per registry operation that declares `mcpResource` (src/domain/discovery/mcp-resources.ts
 * says which, their URIs and what resources/list names). Reading one is a call of that operation
 * through the orchestrator with the MCP codec, exactly as its tool's call — admission, scope, plan,
 * limits, test keys, the sandbox bearer, metering — so it answers what the REST route answers, is
 * charged as the tool is and refused as the tool is. The content is the REST body: the envelope
 * with its `_meta` (a memoised answer's bytes as REST sends them), or the document itself; the
 * content's own `_meta` repeats the trust metadata and, for an answer any cache may keep, carries
 * the `etag` REST gives it.
 *
 * A refusal is a JSON-RPC error whose `data` is the REST error body (`error_code`, explanation,
 * `retryable`, fix hints, `_meta`): -32602 for input the operation refuses (and for a URI that is no
 * resource of this credential's), OPERATION_REFUSED for anything else.
 */
import type { Server } from '@modelcontextprotocol/sdk/server/index.js'
import {
  ErrorCode as RpcError,
  ListResourcesRequestSchema,
  ListResourceTemplatesRequestSchema,
  McpError,
  ReadResourceRequestSchema,
  type ReadResourceResult,
} from '@modelcontextprotocol/sdk/types.js'
import type { TSchema } from '@sinclair/typebox'
import type { AppError } from '../errors/app-error.ts'
import { RULEBOOK_VERSION } from '../domain/rulebook/version.ts'
import type { Principal } from '../domain/access/types.ts'
import {
  isTemplate,
  matchUri,
  resourceDescriptors,
  type ResourceDescriptor,
} from '../domain/discovery/mcp-resources.ts'
import type { Operation } from '../operations/index.ts'
import { answerTag, precomputedTag } from '../pipeline/caching.ts'
import type { AppDeps, Handler } from '../pipeline/context.ts'
import { buildMeta, errorBody, precomputedBody, responseHash } from '../pipeline/envelope.ts'
import { sandboxMeta } from '../pipeline/sandbox.ts'
import { openApiPath } from '../operations/index.ts'
import { flatInput, offeredTo, unflatten, type Tool } from './tools.ts'
import type { Ran, RunCall } from './server.ts'

/** The JSON-RPC error code of a catalogued refusal other than of the input (the `data` names its `error_code`). */
export const OPERATION_REFUSED = -32010

/** The catalogued codes that refuse the input itself: answered -32602, as JSON-RPC's invalid params. */
const INPUT_REFUSALS = new Set(['VALIDATION_FAILED', 'ORG_NUMBER_INVALID_CHECKSUM'])

/** A resource as the server serves it: its descriptor, and the binding that runs its operation. */
export interface Resource {
  descriptor: ResourceDescriptor
  binding: Tool
}

/** A resource's binding: the operation's handler, its REST inputs flattened as its tool's are, its answer kept whole (a document too). */
function bindingOf(d: ResourceDescriptor, handler: Handler<any>): Tool {
  const op = d.operation
  return {
    name: op.mcpTool ?? d.name,
    operation: op,
    keyless: d.keyless,
    input: flatInput(op),
    toInput: (args) => unflatten(op, args),
    handler,
    output: (out) => ({
      result: out.precomputed ? out.precomputed.data : out.data,
      justification: '',
      meta: out.meta ?? {},
      ...(out.precomputed ? { hash: out.precomputed.hash, precomputed: out.precomputed } : {}),
      ...(out.document ? { document: out.document } : {}),
    }),
  }
}

/** The resources of a registry, each with its operation's handler from the surfaces' table. */
export function buildResources(operations: readonly Operation[], handlers: Record<string, Handler<any>>): Resource[] {
  return resourceDescriptors(operations).map((d) => {
    const handler = handlers[d.operation.id]
    if (!handler) throw new Error(`operation ${d.operation.id} names an MCP resource but has no handler`)
    return { descriptor: d, binding: bindingOf(d, handler) }
  })
}

/** The resources a credential is offered: as its tools are (scope; the keyless ones without a credential). */
export function visibleResources(principal: Principal, all: readonly Resource[]): Resource[] {
  return all.filter((r) => offeredTo(principal, r.descriptor.operation))
}

/** The resource a URI reads, with the variables it gives, among `resources`. */
export function resourceOf(
  resources: readonly Resource[],
  uri: string,
): { resource: Resource; values: Record<string, string> } | null {
  for (const resource of resources) {
    const values = matchUri(resource.descriptor.uriTemplate, uri)
    if (values) return { resource, values }
  }
  return null
}

/** A variable's text as its input takes it: digits for an integer (the schema refuses anything else as it came). */
function variableValue(schema: TSchema | undefined, text: string): unknown {
  const type = schema?.type
  if ((type === 'integer' || type === 'number') && /^-?\d{1,15}$/.test(text)) return Number(text)
  if (type === 'boolean' && (text === 'true' || text === 'false')) return text === 'true'
  return text
}

const restTwin = (op: Operation) => `${op.method} ${openApiPath(op.path)}`

function listedMeta(d: ResourceDescriptor) {
  return {
    operation_id: d.operation.id,
    rest: restTwin(d.operation),
    tool: d.operation.mcpTool,
    price_ore: d.operation.costOre,
    rulebook_version: RULEBOOK_VERSION,
  }
}

/** A refusal as JSON-RPC's error: the REST error body as its `data`. */
export function refusal(error: AppError, now: Date, deps: AppDeps): McpError {
  const code = INPUT_REFUSALS.has(error.code) ? RpcError.InvalidParams : OPERATION_REFUSED
  return new McpError(code, `${error.code}: ${error.message}`, errorBody(error, now, deps.config.baseUrl))
}

/** The content of a read that succeeded: the REST twin's body, with its trust metadata and tag beside it. */
async function contentsOf(
  resource: Resource,
  uri: string,
  ran: Extract<Ran, { answer: unknown }>,
): Promise<ReadResourceResult> {
  const { output, served } = ran.answer
  const d = resource.descriptor
  const op = d.operation
  if (output.document) {
    return {
      contents: [
        { uri, mimeType: d.mimeType, text: await output.document.blob.text(), _meta: { etag: output.document.etag } },
      ],
    }
  }
  if (served === 'rehearsal') {
    const meta = sandboxMeta(ran.now, ran.sandbox)
    return {
      contents: [
        {
          uri,
          mimeType: d.mimeType,
          text: JSON.stringify({ success: true, data: output.result, _meta: meta }),
          _meta: meta,
        },
      ],
    }
  }
  const meta = output.meta ?? {}
  const hash = output.hash ?? responseHash(output.result)
  const trust = buildMeta(meta, ran.now, hash)
  const p = output.precomputed
  const text = p
    ? new TextDecoder().decode(precomputedBody(p, meta, ran.now))
    : JSON.stringify({ success: true, data: output.result, _meta: trust })
  const etag = op.cache ? (p ? precomputedTag(p, meta) : answerTag(hash, meta)) : null
  return { contents: [{ uri, mimeType: d.mimeType, text, _meta: { ...trust, ...(etag ? { etag } : {}) } }] }
}

export function serveResources(
  server: Server,
  ctx: { principal: Principal; deps: AppDeps; resources: readonly Resource[]; run: RunCall },
): void {
  const { deps, resources, run } = ctx
  server.setRequestHandler(ListResourcesRequestSchema, async () => ({
    resources: resources.flatMap(({ descriptor: d }) =>
      d.listed.map((l) => ({
        uri: l.uri,
        name: l.name,
        title: l.title,
        description: d.description,
        mimeType: d.mimeType,
        _meta: listedMeta(d),
      })),
    ),
  }))
  server.setRequestHandler(ListResourceTemplatesRequestSchema, async () => ({
    resourceTemplates: resources
      .filter((r) => isTemplate(r.descriptor))
      .map(({ descriptor: d }) => ({
        uriTemplate: d.uriTemplate,
        name: d.name,
        title: d.title,
        description: d.description,
        mimeType: d.mimeType,
        _meta: listedMeta(d),
      })),
  }))
  server.setRequestHandler(ReadResourceRequestSchema, async (req, extra) => {
    const uri = req.params.uri
    const found = resourceOf(resources, uri)
    if (!found) throw new McpError(RpcError.InvalidParams, `Resource not found: ${uri}`)
    const { resource, values } = found
    const args = Object.fromEntries(
      Object.entries(values).map(([k, v]) => [k, variableValue(resource.descriptor.inputs[k], v)]),
    )
    const ran = await run(resource.binding, args, extra.signal)
    if ('error' in ran) throw refusal(ran.error, ran.now, deps)
    return contentsOf(resource, uri, ran)
  })
}
