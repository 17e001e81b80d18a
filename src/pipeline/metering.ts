import { AppError } from '../errors/app-error.ts'
import { KeyNotLive } from '../domain/access/key-cache.ts'
import { judgeLimits, windowsFor } from '../domain/access/limits.ts'
import { countAndCharge, LOW_BALANCE_ORE, type Charge } from '../domain/billing/metering.ts'
import type { Operation } from '../operations/index.ts'
import { authorise, feedAgain, limitsFor } from './admission.ts'
import type { AppDeps, RequestState } from './context.ts'
import { audited, confirm, lookAgain } from './key-confirmation.ts'

/**
 * The metering step, the same on every surface (REST and MCP): a keyed call of a priced operation
 * is charged together with confirming its key and counting its limits (one statement) — a
 * calendar feed's read likewise, to the feed's owner, with the owner's liveness in place of a
 * key's (sql/0031 `consumer_is_live`) — then
 * settled when `run` succeeds, or refunded when it throws or its outcome `failed`. Nothing is
 * charged for a failure, nor for an answer its handler marked free (`state.refundReason`).
 */
export async function metered<T>(
  op: Operation,
  state: RequestState,
  deps: AppDeps,
  run: () => Promise<T>,
  failed: (out: T) => boolean,
): Promise<T> {
  let principal = state.principal
  if (op.costOre === 0 || (principal.kind !== 'key' && principal.kind !== 'feed')) return run()
  let counted: { charge: Charge; headers: Record<string, string> } | null = null
  for (let attempt = 0; counted === null; attempt++) {
    const limits = limitsFor(op, principal, state.ip)
    const now = deps.clock.now()
    const windows = windowsFor(limits, now)
    try {
      counted = await countAndCharge(deps.charger, windows, (counts) => judgeLimits(limits, windows, counts, now), {
        consumerId: principal.consumerId,
        keyId: principal.kind === 'key' ? principal.keyId : null,
        plan: principal.plan,
        costOre: op.costOre,
        operationId: op.id,
        correlationId: state.correlationId,
        baseUrl: deps.config.baseUrl,
      })
    } catch (e) {
      if (!(e instanceof KeyNotLive)) {
        // 402 and 429 come after the key was confirmed.
        if (e instanceof AppError && e.code !== 'CREDIT_CHECK_UNAVAILABLE') confirm(state)
        // Whoever holds a feed's URL is not its owner: the owner's balance and top-up page stay theirs.
        if (principal.kind === 'feed' && e instanceof AppError && e.code === 'INSUFFICIENT_CREDITS')
          throw new AppError('INSUFFICIENT_CREDITS', { extra: { cost_ore: op.costOre } })
        throw e
      }
      if (attempt === 2) throw new AppError('CREDIT_CHECK_UNAVAILABLE', { headers: { 'retry-after': '1' } })
      if (principal.kind === 'feed') {
        // The owner was deactivated or re-planned since the feed was resolved: hear what it is now.
        principal = await feedAgain(state, deps)
        authorise(op, principal)
        continue
      }
      // The key changed since it was resolved: hear what it is now (a refusal, audited as any
      // refused credential is), or charge with its new plan.
      principal = await lookAgain(state, deps)
      try {
        authorise(op, principal)
      } catch (refused) {
        throw await audited(refused, state, deps, principal)
      }
    }
  }
  confirm(state)
  const { charge, headers } = counted
  deps.metrics.charged(op.costOre)
  state.extraHeaders = { ...state.extraHeaders, ...headers }
  // The balance is the key holder's to see, not a feed reader's (a calendar program anyone may run).
  if (principal.kind === 'key') {
    state.extraHeaders['x-credits-balance-ore'] = String(charge.balanceAfter)
    if (charge.balanceAfter < LOW_BALANCE_ORE) state.extraHeaders['x-credits-low'] = 'true'
  }
  // The batch's hold is released only once this call's refund is written; a refund that fails is
  // tried again by the settler (and if this process dies first, the sweep refunds the batch).
  const giveBack = (reason: string) =>
    deps.settler.giveBack(charge, `refund: ${reason}`, () => deps.metrics.refunded(op.costOre))
  let out: T
  try {
    out = await run()
  } catch (e) {
    await giveBack(e instanceof AppError ? e.code : 'failed call')
    throw e
  }
  if (failed(out)) await giveBack('failed call')
  else if (state.refundReason) await giveBack(state.refundReason)
  else deps.settler.finish(charge)
  return out
}
