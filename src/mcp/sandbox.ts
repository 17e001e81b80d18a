/**
 * MCP under the synthetic sandbox bearer: a tool whose REST twin has a sandbox mirror answers from
 * the sandbox (the same domain functions as the sandbox routes); a keyed tool without one answers
 * SANDBOX_TOOL_UNAVAILABLE; keyless tools behave as they do without a key.
 */
import { Type } from '@sinclair/typebox'
import { SandboxOrg } from '../schemas/sandbox.ts'
import { AppError } from '../errors/app-error.ts'
import { sandboxAnswer, type SandboxAnswer } from '../domain/sandbox/answers.ts'
import { SANDBOX_TODAY, type SandboxState } from '../pipeline/sandbox.ts'
import { sandboxOrg } from '../domain/sandbox/orgs.ts'
import { ANSWER_BY_OPERATION } from '../handlers/sandbox/company.ts'
import type { Tool } from './tools.ts'

/** Sandbox org numbers skip MOD-11 (the reserved 999000XXX series fails it on purpose). */
export const SandboxToolInput = Type.Object(
  { org_number: SandboxOrg, horizon_months: Type.Optional(Type.Integer({ minimum: 1, maximum: 60, description: 'ignored by the sandbox' })) },
  { additionalProperties: false },
)

/** By the REST twin's `sandboxMirror`: which sandbox answer it is. */
const MIRRORS: Record<string, SandboxAnswer> = ANSWER_BY_OPERATION

export function hasSandboxMirror(tool: Tool): boolean {
  return tool.operation.sandboxMirror !== null && tool.operation.sandboxMirror in MIRRORS
}

export async function runSandboxTool(tool: Tool, args: { org_number: string }, state: SandboxState): Promise<{ result: unknown; justification: string }> {
  if (!hasSandboxMirror(tool)) throw new AppError('SANDBOX_TOOL_UNAVAILABLE', { extra: { tool: tool.name } })
  const company = sandboxOrg(args.org_number, state)
  return {
    result: await sandboxAnswer(MIRRORS[tool.operation.sandboxMirror!]!, company, SANDBOX_TODAY),
    justification: `Sandbox: synthetic data for ${company.org_number}, computed by the production rulebook and checks; nothing is real.`,
  }
}
