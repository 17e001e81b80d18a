/**
 * Test-tier keys (`svc_test_…`) on production operations. A test key exists so that an integration
 * written against it works unchanged with a live key: it gets the **production** resource shapes,
 * computed by the production handler over the sandbox's synthetic companies (`sandboxReads`) and
 * marked `is_test` in `_meta`. What a test key can be answered:
 * - an operation whose registry entry names a sandbox mirror (the company reads): the production
 *   handler over synthetic data, at Tier 1 (a test key can hold no delegation);
 * - an operation about the key's own account (`testKeys: 'own-account'`: the balance, usage, a
 *   top-up request): its handler as for any key;
 * - anything else: TEST_KEY_PRODUCTION_ONLY.
 * None reaches an upstream, the idempotency store or the credit ledger: the orchestrator
 * (pipeline/run.ts) skips those steps for a test key, and the synthetic reads call nothing.
 */
import { AppError } from '../errors/app-error.ts'
import type { MetaInput } from './envelope.ts'
import type { AppDeps } from './context.ts'
import { sandboxReads } from '../domain/sandbox/reads.ts'
import { SANDBOX_NOTICE, SANDBOX_PINNED } from './sandbox.ts'
import type { Operation } from '../operations/index.ts'

/** What marks a test key's answer in production `_meta`. */
export const TEST_KEY_META: MetaInput = {
  is_test: true,
  is_sandbox: true,
  sandbox_notice: SANDBOX_NOTICE,
  served_from: 'static',
  data_source: 'Plikt sandbox fixtures (synthetic)',
  data_freshness: new Date(SANDBOX_PINNED),
  last_verified: new Date(SANDBOX_PINNED),
}

/** TEST_KEY_PRODUCTION_ONLY unless the operation has synthetic data for a test key (a sandbox mirror). */
export function mirrorForTestKey(op: Operation): void {
  if (op.sandboxMirror === null)
    throw new AppError('TEST_KEY_PRODUCTION_ONLY', {
      extra: { operation_id: op.id, sandbox_fixtures_url: '/api/v1/sandbox/fixtures' },
    })
}

/**
 * What a test key's production handler reads: the sandbox's synthetic companies instead of the
 * registers, and no delegation (a test key can hold none, so every answer is Tier 1).
 */
export function testKeyDeps(deps: AppDeps): AppDeps {
  // The company reads are all a mirrored operation's handler asks of `reads` (CompanyReads); the
  // registry's mirrors are company reads, and test/contract/surface-parity.test.ts runs every one.
  return {
    ...deps,
    reads: sandboxReads as AppDeps['reads'],
    grants: { delegatedTo: async () => false } as unknown as AppDeps['grants'],
  }
}

/** How a test key's call is answered (see the header). */
export function testKeyRoute(op: Operation): 'synthetic' | 'own-account' {
  if (op.testKeys === 'own-account') return 'own-account'
  mirrorForTestKey(op)
  return 'synthetic'
}
