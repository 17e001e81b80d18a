/** Who is calling, as the access pipeline established it. */
export const PLANS = ['free', 'starter', 'professional', 'enterprise'] as const
export type Plan = (typeof PLANS)[number]

export function planAtLeast(plan: Plan, minimum: Plan): boolean {
  return PLANS.indexOf(plan) >= PLANS.indexOf(minimum)
}

/**
 * `confirmed`: false when resolved from this process's key cache and not yet confirmed by the
 * request's first write (pipeline/key-confirmation.ts); a confirmed key is a new value, never this
 * one changed. `test`: a test-tier key (`svc_test_…`, handlers/sandbox/test-keys.ts).
 */
export type KeyPrincipal = {
  readonly kind: 'key'
  readonly keyId: string
  readonly consumerId: string
  readonly scopes: readonly string[]
  readonly plan: Plan
  readonly test: boolean
  readonly confirmed: boolean
}

export type Principal =
  | KeyPrincipal
  | { kind: 'session'; sessionId: string; consumerId: string; plan: Plan; csrfToken: string }
  | { kind: 'admin' }
  | { kind: 'anonymous' }
  /**
   * a calendar feed's read: the secret URL stands for its portfolio's owner, who is charged
   * (domain/portfolios/feeds.ts); it may read that one portfolio's calendar and nothing else
   */
  | { kind: 'feed'; feedId: string; portfolioId: string; consumerId: string; plan: Plan }
  /** a sandbox caller: writes live in `namespace` (the synthetic bearer's suffix, a real key's consumer, or `anonymous`) */
  | {
      kind: 'sandbox'
      namespace: string
      synthetic: boolean /** a real key used on the sandbox: what it may do */
      key?: { scopes: string[]; test: boolean }
    }

export const KEY_PREFIX = { free: 'svc_free_', test: 'svc_test_', live: 'svc_live_' } as const
export const ISSUANCE_PREFIX = 'svc_issue_'
export const SANDBOX_BEARER_PREFIX = 'svc_sandbox_test_'

/** Scopes a key can carry (spec: capabilities `available_scopes`), plus the `read:*` wildcard. */
export const AVAILABLE_SCOPES = [
  'read:register',
  'read:portal',
  'read:directorate',
  'read:centralbank',
  'read:changes',
  'read:audit',
  'read:actions',
  'read:rulebook',
  'subscribe:webhooks',
  'admin:keys',
] as const
export const DEFAULT_SCOPES = ['read:*']
/** Human-gated: never assignable to a key. */
export const RESERVED_SCOPE_PREFIXES = ['write:', 'act:', 'delegate:'] as const

export function scopeGranted(held: readonly string[], required: string): boolean {
  return held.some((s) => s === required || (s.endsWith(':*') && required.startsWith(s.slice(0, -1))))
}

export const MAX_ACTIVE_KEYS = 3
export const MAX_OUTSTANDING_ISSUANCE_TOKENS = 3
