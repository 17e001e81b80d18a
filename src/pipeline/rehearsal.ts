/**
 * The sandbox bearer on a production operation (MCP: the sandbox's rehearsal of a production
 * tool): an operation whose registry entry names a sandbox mirror answers from the sandbox — the
 * same domain functions as the sandbox routes, over the synthetic companies; a keyed operation
 * without one answers SANDBOX_TOOL_UNAVAILABLE. Keyless operations answer as they do without a key.
 */
import { ANSWER_BY_OPERATION, sandboxAnswer, type SandboxAnswer } from '../domain/sandbox/answers.ts'
import { sandboxOrg } from '../domain/sandbox/orgs.ts'
import type { Operation } from '../operations/index.ts'
import { SANDBOX_TODAY, type SandboxState } from './sandbox.ts'

const MIRRORS: Record<string, SandboxAnswer> = ANSWER_BY_OPERATION

export function rehearsable(op: Operation): boolean {
  return op.sandboxMirror !== null && op.sandboxMirror in MIRRORS
}

/** A production operation rehearsed under the sandbox bearer (`rehearsable`): the synthetic company's answer. */
export function rehearse(op: Operation, org: string, state: SandboxState): Promise<unknown> {
  return sandboxAnswer(MIRRORS[op.sandboxMirror!]!, sandboxOrg(org, state), SANDBOX_TODAY)
}
