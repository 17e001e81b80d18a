/**
 * Test-tier keys (`svc_test_…`) on production operations. Both surfaces call this instead of the
 * operation's handler when the caller's key is a test key: an operation whose registry entry names a
 * sandbox mirror answers the mirror's synthetic answer (the same domain functions as the sandbox
 * routes and the sandbox MCP tools), in the production envelope marked `is_test` and `is_sandbox`;
 * every other keyed operation is refused with TEST_KEY_PRODUCTION_ONLY. Neither path reaches an
 * upstream, the idempotency store or the credit ledger: the surfaces skip those steps for a test key.
 */
import { AppError } from '../../errors/app-error.ts'
import { sandboxAnswer } from '../../domain/sandbox/answers.ts'
import { sandboxOrg } from '../../domain/sandbox/orgs.ts'
import type { MetaInput } from '../../pipeline/envelope.ts'
import { SANDBOX_NOTICE, SANDBOX_PINNED, SANDBOX_TODAY } from '../../pipeline/sandbox.ts'
import type { Operation } from '../../operations/index.ts'
import { ANSWER_BY_OPERATION } from './company.ts'

/** The sandbox answer a production operation has for a test key, or null when it has none. */
export function testKeyMirror(op: Pick<Operation, 'sandboxMirror'>) {
  return op.sandboxMirror !== null && op.sandboxMirror in ANSWER_BY_OPERATION ? ANSWER_BY_OPERATION[op.sandboxMirror as keyof typeof ANSWER_BY_OPERATION] : null
}

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

/** The synthetic answer a production operation has for a test key; TEST_KEY_PRODUCTION_ONLY when it has none. */
export function mirrorForTestKey(op: Operation) {
  const kind = testKeyMirror(op)
  if (kind === null) throw new AppError('TEST_KEY_PRODUCTION_ONLY', { extra: { operation_id: op.id, sandbox_fixtures_url: '/api/v1/sandbox/fixtures' } })
  return kind
}

/** A test key's answer to a production operation about `org` (its `:org` parameter, or its tool's `org_number`). */
export async function testKeyAnswer(op: Operation, org: string): Promise<{ data: unknown; meta: MetaInput }> {
  const kind = mirrorForTestKey(op)
  const company = sandboxOrg(org, { public: false, writeSide: false, simulated: false })
  return { data: await sandboxAnswer(kind, company, SANDBOX_TODAY), meta: TEST_KEY_META }
}
