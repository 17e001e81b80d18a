/**
 * The approval step: an operation that declares `approval` spends a person's approval token on a
 * live call. Each surface hands over the call's token (REST `X-Approval-Token`, MCP
 * `approval_token`); this step binds it to the caller's namespace and, once the token is spent,
 * marks a failure from then on as final (the idempotency step keeps it, the sandbox reports the
 * token consumed). The handler decides when to check and when to spend: after its preconditions.
 */
import {
  approvalGate,
  confirmationPath,
  type ApprovalGate,
  type PersonConfirmation,
} from '../domain/actions/approval.ts'
import type { Principal } from '../domain/access/types.ts'
import { AppError } from '../errors/app-error.ts'
import type { Operation } from '../operations/index.ts'
import type { AppDeps, RequestState } from './context.ts'
import { sandboxCaller } from './sandbox.ts'

/**
 * Production tokens live in the consumer's namespace (`consumer:<uuid>`); sandbox tokens in the
 * sandbox caller's, which never equals a production one (domain/sandbox/namespaces.ts).
 */
export function approvalNamespace(op: Operation, principal: Principal): string {
  if (op.category === 'sandbox') return sandboxCaller(principal).namespace
  if (principal.kind === 'key' || principal.kind === 'session') return `consumer:${principal.consumerId}`
  throw new AppError('AUTH_MISSING')
}

/**
 * Whether the token must carry a person's confirmation: production's must (a token the key
 * route minted is unusable until the account's owner confirmed it on its page); the sandbox's
 * never (it rehearses, it never files).
 */
export function personConfirmation(op: Operation, deps: AppDeps): PersonConfirmation {
  if (op.category === 'sandbox') return null
  return { url: (id) => `${deps.config.baseUrl}${confirmationPath(id)}` }
}

/** The gate a handler of an approval operation receives; null for every other operation. */
export function approvalStep(
  op: Operation,
  token: string | null,
  state: RequestState,
  deps: AppDeps,
): ApprovalGate | null {
  if (!op.approval) return null
  const onSpent = () => {
    state.failureIsFinal = true
    if (state.sandbox) state.sandbox.tokenConsumed = true
  }
  return approvalGate(
    deps.sql,
    approvalNamespace(op, state.principal),
    token,
    () => deps.clock.now(),
    onSpent,
    personConfirmation(op, deps),
  )
}
