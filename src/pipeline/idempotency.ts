/**
 * The Idempotency-Key protocol, the same on every surface: the first request with a key claims
 * it, runs, and stores its answer; a retry with the same key and the same request replays that
 * answer without running anything again; the same key with another request is refused; a failure
 * releases the key, unless something irreversible had already happened (then it is stored too).
 * Each surface says how its answers are stored and replayed (`AnswerCodec`).
 */
import { AppError } from '../errors/app-error.ts'
import type { Principal } from '../domain/access/types.ts'
import * as idem from '../store/idempotency.ts'
import type { Operation } from '../operations/index.ts'
import type { AppDeps, RequestState } from './context.ts'

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[1-8][0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/i
/** How long a key's answer is kept for replay. */
export const IDEMPOTENCY_TTL_MS = 24 * 3600_000
/** An in-progress claim older than this belongs to a request whose process died. */
const IDEMPOTENCY_STALE_MS = 60_000

/** `?dry_run=true`: the call changes nothing (any other value is a live call). */
export const isDryRun = (value: unknown): boolean => value === 'true'

export interface IdempotentRequest {
  /** the Idempotency-Key sent, or null */
  key: string | null
  /** a dry run changes nothing, so it never claims the key: "check, then file with the same key" works */
  dryRun: boolean
  /** sha-256 of everything that makes the request what it is besides its operation */
  fingerprint: string
}

export interface StoredAnswer {
  status: number
  body: string
}

export interface AnswerCodec<T> {
  store(out: T): Promise<StoredAnswer>
  replay(stored: StoredAnswer): T
  /** an answer that is a failure releases the key (nothing happened) */
  failed(out: T): boolean
  /** the answer to keep for a failure after something irreversible happened */
  finalFailure(e: AppError): T
}

function idempotencyScope(p: Principal): string {
  switch (p.kind) {
    case 'key':
      return `key:${p.keyId}`
    case 'session':
      return `consumer:${p.consumerId}`
    case 'admin':
      return 'admin'
    case 'anonymous':
      return 'anonymous'
    case 'sandbox':
      // Never the same string as a production scope (`consumer:…`, `anonymous`).
      return `sandbox:${p.namespace}`
    case 'feed':
      return `feed:${p.feedId}`
  }
}

export async function idempotent<T>(
  op: Operation,
  req: IdempotentRequest,
  state: RequestState,
  deps: AppDeps,
  codec: AnswerCodec<T>,
  run: () => Promise<T>,
): Promise<T> {
  if (!op.idempotency || req.dryRun) return run()
  if (req.key === null) {
    if (op.idempotency === 'required') throw new AppError('IDEMPOTENCY_KEY_REQUIRED')
    return run()
  }
  if (!UUID.test(req.key))
    throw new AppError('IDEMPOTENCY_KEY_INVALID_FORMAT', { context: { field: 'Idempotency-Key' } })
  const now = deps.clock.now()
  const scope = idempotencyScope(state.principal)
  const key = req.key.toLowerCase()
  const existing = await idem.claim(
    deps.sql,
    scope,
    key,
    op.id,
    req.fingerprint,
    now,
    new Date(now.getTime() + IDEMPOTENCY_TTL_MS),
    new Date(now.getTime() - IDEMPOTENCY_STALE_MS),
  )
  if (existing) {
    if (existing.fingerprint !== req.fingerprint) throw new AppError('IDEMPOTENCY_KEY_MISMATCH')
    if (existing.state === 'in_progress')
      throw new AppError('IDEMPOTENCY_IN_PROGRESS', { headers: { 'retry-after': '1' } })
    return codec.replay({ status: existing.response_status ?? 200, body: existing.response_body ?? '' })
  }
  const release = () => idem.release(deps.sql, scope, key).catch(() => {})
  try {
    const out = await run()
    if (codec.failed(out)) {
      await release()
      return out
    }
    const stored = await codec.store(out)
    await idem.complete(deps.sql, scope, key, stored.status, stored.body)
    return out
  } catch (e) {
    if (e instanceof AppError && state.failureIsFinal) {
      // Something irreversible happened (an approval token was spent): a retry with the key hears
      // this answer again instead of a confusing APPROVAL_TOKEN_USED.
      const out = codec.finalFailure(e)
      const stored = await codec.store(out)
      await idem.complete(deps.sql, scope, key, stored.status, stored.body)
      return out
    }
    await release()
    throw e
  }
}
