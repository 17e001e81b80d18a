/**
 * The spec's envelopes. Success: `{success: true, data, _meta}`. Error: `{success: false,
 * error_code, explanation, _meta}` plus `retryable`, `fix_hint`, `fix_hint_en`, `docs_url` — every
 * code in our catalogue carries them.
 */
import { canonicalJson } from '../lib/canonical-json.ts'
import { sha256Hex } from '../lib/hash.ts'
import { SCHEMA_VERSION, SERVICE_NAME } from '../lib/service.ts'
import { RULEBOOK_VERSION } from '../domain/rulebook/version.ts'
import { CATALOGUE } from '../errors/catalogue/index.ts'
import { docsUrl } from '../errors/registry.ts'
import { explain } from '../errors/explain.ts'
import type { AppError } from '../errors/app-error.ts'

/** What a handler may say about its answer; the rest of `_meta` is filled in here. */
export interface MetaInput {
  /** default the service's name; the agent-readiness probe names its telemetry variant */
  source?: string
  data_freshness?: Date
  last_verified?: Date
  data_source?: string
  served_from?: 'cache' | 'live' | 'static'
  stale?: boolean
  legal_basis?: string
  rule_count?: number
  applicable_count?: number
  not_applicable_count?: number
  insufficient_data_count?: number
  source_snapshot_id?: string
  /** every archived upstream answer the data was built from, when more than one */
  source_snapshot_ids?: string[]
  /** a discovery surface with a version of its own (the capabilities document); default the OpenAPI version */
  schema_version?: string
  /** a test key's answer: the sandbox's synthetic data (handlers/sandbox/test-keys.ts) */
  is_test?: true
  is_sandbox?: true
  sandbox_notice?: string
}

export interface TrustMetadata {
  rulebook_version: string
  data_freshness: string
  last_verified: string
  source: string
  schema_version: string
  data_source?: string
  served_from?: 'cache' | 'live' | 'static'
  stale?: boolean
  legal_basis?: string
  rule_count?: number
  applicable_count?: number
  not_applicable_count?: number
  insufficient_data_count?: number
  response_timestamp: string
  response_hash?: string
  source_snapshot_id?: string
  source_snapshot_ids?: string[]
  is_test?: true
  is_sandbox?: true
  sandbox_notice?: string
}

/** `sha256:` + hex of the RFC 8785 canonical JSON of `data`. */
export function responseHash(data: unknown): string {
  return `sha256:${sha256Hex(canonicalJson(data))}`
}

export function buildMeta(input: MetaInput, now: Date, hash?: string): TrustMetadata {
  const { data_freshness, last_verified, source_snapshot_id, source_snapshot_ids, ...rest } = input
  return {
    rulebook_version: RULEBOOK_VERSION,
    data_freshness: (data_freshness ?? now).toISOString(),
    last_verified: (last_verified ?? data_freshness ?? now).toISOString(),
    source: SERVICE_NAME,
    schema_version: SCHEMA_VERSION,
    ...rest,
    response_timestamp: now.toISOString(),
    ...(hash ? { response_hash: hash } : {}),
    ...(source_snapshot_id ? { source_snapshot_id } : {}),
    ...(source_snapshot_ids ? { source_snapshot_ids } : {}),
  }
}

/**
 * A success body for data that never changes while the process runs, serialised, hashed and
 * UTF-8 encoded once: per response only `_meta` is added.
 */
export interface PrecomputedData {
  /** the answer itself, for surfaces that do not send the bytes (MCP) */
  data: unknown
  hash: string
  /** `data` as JSON, for surfaces that serialise it inside an envelope of their own (MCP's text content) */
  json: string
  /** the bytes of `{"success":true,"data":<data>,"_meta":` */
  prefix: Uint8Array
  /** the last body built: bodies built in the same millisecond with the same `_meta` are identical */
  last?: { ms: number; meta: MetaInput; body: Uint8Array; blob?: Blob }
  /** `json` escaped as the inside of a JSON string, made when first asked for (MCP's text content) */
  escapedJson?: string
  /** the answer's strong ETag, made when first served by an operation a cache may keep (pipeline/caching.ts) */
  etag?: string
}

const encoder = new TextEncoder()

export function precompute(data: unknown): PrecomputedData {
  const json = JSON.stringify(data)
  return { data, hash: responseHash(data), json, prefix: encoder.encode(`{"success":true,"data":${json},"_meta":`) }
}

/**
 * As `precompute`, for data whose RFC 8785 canonical JSON the caller assembled itself (from parts
 * canonicalised once and kept: a portfolio's merged deadlines): the canonical JSON is the body's
 * JSON too, so the answer is serialised and encoded once.
 */
export function precomputeCanonical(data: unknown, canonical: string): PrecomputedData {
  const bytes = encoder.encode(canonical)
  const head = encoder.encode('{"success":true,"data":')
  const tail = encoder.encode(',"_meta":')
  const prefix = new Uint8Array(head.length + bytes.length + tail.length)
  prefix.set(head, 0)
  prefix.set(bytes, head.length)
  prefix.set(tail, head.length + bytes.length)
  return { data, hash: `sha256:${sha256Hex(bytes)}`, json: canonical, prefix }
}

function sameMeta(a: MetaInput, b: MetaInput): boolean {
  const ka = Object.keys(a) as (keyof MetaInput)[]
  if (ka.length !== Object.keys(b).length) return false
  for (const k of ka) {
    const x = a[k]
    const y = b[k]
    if (x instanceof Date && y instanceof Date ? x.getTime() !== y.getTime() : x !== y) return false
  }
  return true
}

export function precomputedBody(p: PrecomputedData, meta: MetaInput, now: Date): Uint8Array {
  const ms = now.getTime()
  if (p.last && p.last.ms === ms && sameMeta(p.last.meta, meta)) return p.last.body
  const tail = `${JSON.stringify(buildMeta(meta, now, p.hash))}}`
  // One allocation with `_meta` encoded in place; a Blob or a concatenation cost more than the
  // rest of the request together (bench/RESULTS.md).
  const out = Buffer.allocUnsafe(p.prefix.length + tail.length * 3)
  out.set(p.prefix, 0)
  const { written } = encoder.encodeInto(tail, out.subarray(p.prefix.length))
  const body = out.subarray(0, p.prefix.length + written)
  p.last = { ms, meta, body }
  return body
}

/**
 * The same body as a Blob, made once per body built: a Response made from bytes copies them (27 KB
 * for a year's deadlines), one made from a Blob shares its memory.
 */
export function precomputedBlob(p: PrecomputedData, meta: MetaInput, now: Date): Blob {
  const body = precomputedBody(p, meta, now)
  return (p.last!.blob ??= new Blob([body]))
}

export function errorBody(err: AppError, now: Date, baseUrl: string) {
  const entry = CATALOGUE[err.code]
  const explanation = explain(err.code, err.options.context)
  return {
    success: false as const,
    error_code: err.code,
    explanation: err.options.details ? { ...explanation, details: err.options.details } : explanation,
    retryable: entry.retryable,
    fix_hint: entry.fix_hint_en,
    fix_hint_en: entry.fix_hint_en,
    docs_url: docsUrl(baseUrl, err.code),
    ...err.options.extra,
    _meta: buildMeta({}, now),
  }
}

export function errorResponse(err: AppError, now: Date, baseUrl: string, correlationId?: string): Response {
  // An error is about this request at this moment (a limit, an outage, this caller's key): no cache keeps it.
  const headers = new Headers({
    'content-type': 'application/json; charset=utf-8',
    'cache-control': 'no-store',
    ...err.options.headers,
  })
  if (correlationId) headers.set('x-correlation-id', correlationId)
  return new Response(JSON.stringify(errorBody(err, now, baseUrl)), { status: err.status, headers })
}
