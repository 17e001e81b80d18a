/**
 * The namespaces sandbox writes (approval tokens, audit rows, receipts) live in. Each begins with
 * `sandbox` and none can equal a production one (`consumer:<uuid>`, `key:<uuid>`, `anonymous`): a
 * sandbox approval token must never be found by the production execute route, nor the reverse.
 * A suffix (`^[A-Za-z0-9_-]{1,64}$`) has no `/`, so the synthetic bearer's namespaces cannot meet
 * the other two either.
 */
export const ANONYMOUS_SANDBOX_NAMESPACE = 'sandbox/anonymous'

/** The synthetic bearer `svc_sandbox_test_<suffix>`. */
export const syntheticNamespace = (suffix: string) => `sandbox:${suffix}`

/** A real key used on the sandbox: its consumer's sandbox namespace. */
export const consumerSandboxNamespace = (consumerId: string) => `sandbox/consumer:${consumerId}`

/** The consumer whose real key made this namespace; null for the synthetic bearer and the anonymous caller. */
export function consumerOfSandboxNamespace(namespace: string): string | null {
  return namespace.startsWith('sandbox/consumer:') ? namespace.slice('sandbox/consumer:'.length) : null
}
