/**
 * HTTP caching (issue 34). A keyless operation whose answer is the same for every caller declares a
 * `cache` policy in the registry (operations/define.ts `CACHE`): its answers say how long any cache
 * may keep them (`Cache-Control: public, max-age=…`), carry a strong `ETag`, and a request whose
 * `If-None-Match` names it is answered `304 Not Modified`. Every keyed operation's answers are
 * `Cache-Control: private, no-store`: a metered or account answer is never kept by a shared cache,
 * and carries no validator, so a conditional request can never hide or skip a charge.
 *
 * The tag is over what varies between answers, not over the per-response `_meta` fields
 * (`response_timestamp`, and `data_freshness`/`last_verified`, which a static answer takes from the
 * instance's start): the answer's data, its other `_meta` fields, and the rulebook and service
 * versions, so a new rulebook or a new release changes every tag. A tag is computed once per
 * document per instance — on the memoised answer or document itself — never per request, except
 * for answers read from the database (the anchors), whose `response_hash` is computed per answer
 * anyway.
 */
import { RULEBOOK_VERSION } from '../domain/rulebook/version.ts'
import { canonicalJson } from '../lib/canonical-json.ts'
import { sha256Hex } from '../lib/hash.ts'
import { SCHEMA_VERSION } from '../lib/service.ts'
import type { CachePolicy, Operation } from '../operations/index.ts'
import type { MetaInput, PrecomputedData } from './envelope.ts'

/** A keyed answer: for this caller only, and kept by nobody. */
export const PRIVATE_NO_STORE = 'private, no-store'

/** The versions a tag is computed over besides the answer itself. */
export function tagVersions(rulebook: string, service: string): string {
  return `rulebook ${rulebook}; service ${service}`
}

/**
 * This build's: a new rulebook or a new release of the service changes every tag (and so every
 * cached copy is asked about again), even of an answer whose data did not change.
 */
export const TAG_VERSIONS = tagVersions(RULEBOOK_VERSION, SCHEMA_VERSION)

/** A strong entity tag (RFC 9110 §8.8.3) over `parts` under `versions`. */
export function entityTag(versions: string, ...parts: string[]): string {
  return `"${sha256Hex(`${versions}\n${parts.join('\n')}`)}"`
}

/** A strong entity tag of this build. */
export function strongTag(...parts: string[]): string {
  return entityTag(TAG_VERSIONS, ...parts)
}

export function cacheControl(p: CachePolicy, maxAge = p.maxAge): string {
  return `public, max-age=${maxAge}${p.staleWhileRevalidate !== null ? `, stale-while-revalidate=${p.staleWhileRevalidate}` : ''}`
}

const controls = new WeakMap<Operation, string | null>()

/**
 * The `Cache-Control` of an operation's success answers, decided once per operation: its policy;
 * `private, no-store` for anything a credential is read for (keys, sessions, the operator); none
 * for the other keyless answers (live readings such as the readiness probe or an exchange rate,
 * the sandbox), which no cache keeps without a lifetime.
 */
export function cacheControlOf(op: Operation): string | null {
  let c = controls.get(op)
  if (c === undefined) {
    c = op.cache ? cacheControl(op.cache) : op.auth === 'none' || op.auth === 'sandbox' ? null : PRIVATE_NO_STORE
    controls.set(op, c)
  }
  return c
}

/** The `_meta` fields a tag covers: all but the per-response and per-instance times. */
export function stableMeta(meta: MetaInput): string {
  const { data_freshness: _f, last_verified: _v, ...rest } = meta
  return canonicalJson(rest)
}

/**
 * The tag of a memoised envelope answer, made the first time it is served and kept on it: the
 * answer's `_meta` input is the same on every request of one document.
 */
export function precomputedTag(p: PrecomputedData, meta: MetaInput): string {
  return (p.etag ??= strongTag(p.hash, stableMeta(meta)))
}

/** The tag of an envelope answer made per request (read from the database): from its `response_hash`. */
export function answerTag(hash: string, meta: MetaInput): string {
  return strongTag(hash, stableMeta(meta))
}

/**
 * A whole response body that is not an envelope (OpenAPI, llms.txt, a page, a well-known
 * document), encoded, tagged and put in a Blob once: a Response made from a Blob shares its memory.
 */
export interface CachedDocument {
  blob: Blob
  etag: string
  /** content type and the document's own headers (a page's CSP, a linkset's Link) */
  headers: Readonly<Record<string, string>>
}

export function cachedDocument(body: string | Uint8Array, headers: Record<string, string>): CachedDocument {
  const bytes = typeof body === 'string' ? new TextEncoder().encode(body) : body
  return { blob: new Blob([bytes]), etag: strongTag(sha256Hex(bytes)), headers: Object.freeze({ ...headers }) }
}

/** A JSON document (the well-known documents, workflows.json) as a CachedDocument. */
export function jsonDocument(
  value: unknown,
  type = 'application/json; charset=utf-8',
  headers: Record<string, string> = {},
): CachedDocument {
  return cachedDocument(JSON.stringify(value), { 'content-type': type, ...headers })
}

/**
 * What an instance derives once and serves many times — the public rulebook answers, the error
 * registry, OpenAPI, the discovery documents and pages, the well-known documents, the price list:
 * the one cache of derived documents, one per instance (`composeDeps` builds it). Keys name the
 * document and whatever it varies by (`openapi`, `deadlines:2027:AS`). Bounded, oldest out first:
 * a document pushed out is made again on its next use.
 */
export class Documents {
  private static readonly MAX = 1000
  private readonly made = new Map<string, unknown>()

  get<T>(key: string, build: () => T): T {
    const hit = this.made.get(key)
    if (hit !== undefined) return hit as T
    const value = build()
    if (this.made.size >= Documents.MAX) this.made.delete(this.made.keys().next().value!)
    this.made.set(key, value)
    return value
  }
}

/** A document made once per instance (its `deps.documents`), under `name`, on first use. */
export function perInstance<D extends { documents: Documents }, T>(
  name: string,
  build: (deps: D) => T,
): (deps: D) => T {
  return (deps) => deps.documents.get(name, () => build(deps))
}

/** RFC 9110 §13.1.2: If-None-Match uses weak comparison and may list several tags, or `*`. */
export function ifNoneMatch(header: string | null, etag: string): boolean {
  if (!header) return false
  if (header.trim() === '*') return true
  const opaque = (tag: string) => tag.trim().replace(/^W\//, '')
  const want = opaque(etag)
  return header.split(',').some((t) => opaque(t) === want)
}

/**
 * 304: no body, and the headers a 200 would have carried that a cache updates its copy from
 * (RFC 9110 §15.4.5: ETag, Cache-Control, Vary).
 */
export function notModified(headers: Record<string, string>): Response {
  return new Response(null, { status: 304, headers })
}
