/**
 * MCP tools: each a thin adapter over the same domain function and registry entry as its REST twin.
 * The input schema is the REST schema (query or body) unless the spec gives the tool its own shape
 * (explain_compliance_error flattens the context). Tools whose capability does not exist yet are
 * not listed: they arrive with it.
 */
import { Type, type TSchema } from '@sinclair/typebox'
import { redeemIssuanceToken } from '../domain/access/issuance.ts'
import type { Principal } from '../domain/access/types.ts'
import { priceList } from '../domain/billing/pricing.ts'
import { publicDeadlines, publicObligations } from '../domain/rulebook/public.ts'
import { RULEBOOK_VERSION } from '../domain/rulebook/version.ts'
import { AppError } from '../errors/app-error.ts'
import { explain, resolveCode } from '../errors/explain.ts'
import { osloDate } from '../lib/oslo-time.ts'
import { allOperations, type Operation } from '../operations.ts'
import { readBalance } from '../store/credits.ts'
import { PublicDeadlinesQuery, PublicObligationsQuery } from '../schemas/rulebook.ts'
import { RedeemBody } from '../schemas/access.ts'
import type { AppDeps } from '../http/context.ts'

export interface ToolContext {
  deps: AppDeps
  principal: Principal
  correlationId: string
  now: Date
}

export interface Tool {
  name: string
  /** the registry entry it mirrors: scope, description, cost */
  operation: Operation
  /** callable with no Authorization header at all */
  keyless: boolean
  input: TSchema
  run(args: any, ctx: ToolContext): Promise<{ result: unknown; justification: string }>
}

const contextValue = Type.String({ minLength: 1, maxLength: 64 })

/** The spec's explain_compliance_error input: the REST context, flattened. */
export const ExplainToolInput = Type.Object(
  {
    error_code: Type.String({ minLength: 1, maxLength: 64, pattern: '^[A-Za-z0-9_]+$' }),
    context_org_number: Type.Optional(Type.String({ pattern: '^[0-9]{9}$' })),
    context_scope: Type.Optional(contextValue),
    context_role: Type.Optional(contextValue),
    context_field: Type.Optional(contextValue),
    context_upstream_system: Type.Optional(contextValue),
  },
  { additionalProperties: false },
)

const NoInput = Type.Object({}, { additionalProperties: false })

function operation(id: string): Operation {
  const op = allOperations.find((o) => o.id === id)
  if (!op) throw new Error(`no operation ${id}`)
  return op
}

export const TOOLS: Tool[] = [
  {
    name: 'get_public_obligations',
    operation: operation('getPublicObligations'),
    keyless: true,
    input: PublicObligationsQuery,
    run: async (args: { entity_type: Parameters<typeof publicObligations>[0] }) => ({
      result: { entity_type: args.entity_type, obligations: publicObligations(args.entity_type) },
      justification: `Rulebook ${RULEBOOK_VERSION}: the obligations whose rules concern ${args.entity_type}, each with its legal reference.`,
    }),
  },
  {
    name: 'get_public_deadlines',
    operation: operation('getPublicDeadlines'),
    keyless: true,
    input: PublicDeadlinesQuery,
    run: async (args: { year?: number; entity_type?: Parameters<typeof publicObligations>[0] }, ctx) => {
      const year = args.year ?? Number(osloDate(ctx.now).slice(0, 4))
      return {
        result: { year, entity_type: args.entity_type ?? null, timezone: 'Europe/Oslo', deadlines: publicDeadlines(year, args.entity_type) },
        justification: `Rulebook ${RULEBOOK_VERSION}: every statutory deadline falling in ${year} (Europe/Oslo), moved off weekends and public holidays where the law says so.`,
      }
    },
  },
  {
    name: 'explain_compliance_error',
    operation: operation('explainError'),
    keyless: true,
    input: ExplainToolInput,
    run: async (args: { error_code: string; context_org_number?: string; context_scope?: string; context_role?: string; context_field?: string; context_upstream_system?: string }) => {
      const code = resolveCode(args.error_code)
      const context = {
        ...(args.context_org_number ? { org_number: args.context_org_number } : {}),
        ...(args.context_scope ? { scope: args.context_scope } : {}),
        ...(args.context_role ? { role: args.context_role } : {}),
        ...(args.context_field ? { field: args.context_field } : {}),
        ...(args.context_upstream_system ? { upstream_system: args.context_upstream_system } : {}),
      }
      return {
        result: { explanation: { ...explain(code, context), error_code: code }, requested_error_code: args.error_code, catalogued: code !== 'UNKNOWN' || args.error_code.trim().toUpperCase() === 'UNKNOWN' },
        justification: 'From the service’s error catalogue; no upstream system was called.',
      }
    },
  },
  {
    name: 'get_pricing',
    operation: operation('getPricing'),
    keyless: true,
    input: NoInput,
    run: async (_args: unknown, ctx) => ({
      result: priceList(allOperations, ctx.deps.config.baseUrl, ctx.deps.config.topupCeilingOre),
      justification: 'The current price list of this deployment.',
    }),
  },
  {
    name: 'redeem_issuance_token',
    operation: operation('redeemIssuanceToken'),
    keyless: true,
    input: RedeemBody,
    run: async (args: { token: string }, ctx) => {
      const minted = await redeemIssuanceToken(ctx.deps.sql, args.token, ctx.now, ctx.correlationId)
      return {
        result: { plaintext_key: minted.plaintext_key, scopes: minted.key.scopes, key_id: minted.key.id, display_prefix: minted.key.display_prefix },
        justification: 'The issuance token was valid: a read:* key was issued and the token used up. The key is shown this once.',
      }
    },
  },
  {
    name: 'get_credit_balance',
    operation: operation('getCreditBalance'),
    keyless: false,
    input: NoInput,
    run: async (_args: unknown, ctx) => {
      if (ctx.principal.kind !== 'key') throw new AppError('AUTH_MISSING')
      const b = await readBalance(ctx.deps.sql, ctx.principal.consumerId)
      return {
        result: { balance_ore: b.balance_ore, currency: 'NOK', updated_at: b.updated_at?.toISOString() ?? null },
        justification: 'The prepaid balance of the account that owns this key, read now.',
      }
    },
  },
]
