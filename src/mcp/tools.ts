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
import { NO_HEADERS, type AppDeps, type Handler, type HandlerOutput, type RequestState } from '../pipeline/context.ts'
import type { MetaInput } from '../pipeline/envelope.ts'
import { companyHandlers } from '../handlers/company.ts'
import { exchangeRateWithSources } from '../handlers/tools.ts'
import { resolvePair } from '../domain/tools/exchange-rate.ts'
import { OrgNumber } from '../schemas/company.ts'
import { ExchangeRatePairInput } from '../schemas/tools.ts'

export interface ToolContext {
  deps: AppDeps
  signal: AbortSignal
  principal: Principal
  correlationId: string
  now: Date
  state: RequestState
}

interface ToolOutput {
  result: unknown
  justification: string
  /** provenance for `_meta` (served_from, data_freshness, source_snapshot_id …) */
  meta?: MetaInput
  /** `response_hash` of `result` when the REST twin already computed it (memoised answers) */
  hash?: string
}

export interface Tool {
  name: string
  /** the registry entry it mirrors: scope, description, cost */
  operation: Operation
  /** callable with no Authorization header at all */
  keyless: boolean
  input: TSchema
  run(args: any, ctx: ToolContext): Promise<ToolOutput>
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
  {
    name: 'get_exchange_rate',
    operation: operation('getExchangeRate'),
    keyless: true,
    input: ExchangeRatePairInput,
    run: async (args: { base: string; quote: string; date?: string }, ctx) => {
      // The answer is always NOK per one unit of the other currency, whichever side NOK is on.
      const { currency } = resolvePair(args.base, args.quote)
      const r = await exchangeRateWithSources(ctx.deps, { currency, ...(args.date !== undefined ? { date: args.date } : {}) }, ctx.now)
      return { result: r.data, meta: r.meta, justification: `Norges Bank’s published rate for ${currency}, as NOK per one unit, for the date stated in the result.` }
    },
  },
  companyTool('get_company_summary', 'getCompanySummary', Type.Object({ org_number: OrgNumber }, { additionalProperties: false }), (a) => ({ params: { org: a.org_number } }), 'The register unit evaluated by the rulebook: obligations and the next 12 months of deadlines (Tier 1).'),
  companyTool('get_company_context', 'getCompanyContext', Type.Object({ org_number: OrgNumber }, { additionalProperties: false }), (a) => ({ params: { org: a.org_number } }), 'The open register’s Tier 1 fields for the organisation.'),
  companyTool('get_company_profile', 'getCompanyProfile', Type.Object({ org_number: OrgNumber }, { additionalProperties: false }), (a) => ({ body: { org_number: a.org_number } }), 'The profile from Enhetsregisteret, with role codes only.'),
  companyTool('get_company_obligations', 'getCompanyObligations', Type.Object({ org_number: OrgNumber }, { additionalProperties: false }), (a) => ({ params: { org: a.org_number } }), 'Every rule of the rulebook evaluated on the register’s Tier 1 facts.'),
  companyTool(
    'get_company_deadlines',
    'getCompanyDeadlines',
    Type.Object({ org_number: OrgNumber, horizon_months: Type.Optional(Type.Integer({ minimum: 1, maximum: 60, description: 'default 12' })) }, { additionalProperties: false }),
    (a) => ({ params: { org: a.org_number }, query: a.horizon_months === undefined ? {} : { horizon_months: a.horizon_months } }),
    'The deadlines of the applicable obligations from today (Europe/Oslo).',
  ),
  companyTool('get_company_verification', 'verifyCompany', Type.Object({ org_number: OrgNumber }, { additionalProperties: false }), (a) => ({ params: { org: a.org_number } }), 'Register status and the visible signing rule decide the verdict; the other signals are for transparency.'),
  companyTool('get_company_authority', 'getCompanyAuthority', Type.Object({ org_number: OrgNumber }, { additionalProperties: false }), (a) => ({ params: { org: a.org_number } }), 'Signature and procuration as Brønnøysundregistrene register them; not a legal opinion.'),
  companyTool('get_company_accounts', 'getCompanyAccounts', Type.Object({ org_number: OrgNumber }, { additionalProperties: false }), (a) => ({ params: { org: a.org_number } }), 'The newest approved annual accounts in Regnskapsregisteret.'),
  companyTool(
    'get_company_filing_history',
    'getFilingHistory',
    Type.Object(
      {
        org_number: OrgNumber,
        limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 100 })),
        cursor: Type.Optional(Type.String({ minLength: 1, maxLength: 512 })),
        offset: Type.Optional(Type.Integer({ minimum: 0, deprecated: true })),
      },
      { additionalProperties: false },
    ),
    (a) => ({ params: { org: a.org_number }, query: { ...(a.limit !== undefined ? { limit: a.limit } : {}), ...(a.cursor !== undefined ? { cursor: a.cursor } : {}), ...(a.offset !== undefined ? { offset: a.offset } : {}) } }),
    'The organisation’s portal submissions, paired with this account’s own submissions where they match.',
  ),
  companyTool('search_companies', 'searchCompanies', Type.Object({ name: Type.String({ minLength: 2, maxLength: 100 }) }, { additionalProperties: false }), (a) => ({ query: { name: a.name } }), 'Candidates by name from Enhetsregisteret.'),
]

/** A company-data tool: the REST twin's handler, called with the tool's arguments mapped to its inputs. */
function companyTool(name: string, id: keyof typeof companyHandlers, input: TSchema, toRequest: (args: any) => { params?: unknown; query?: unknown; body?: unknown }, justification: string): Tool {
  return {
    name,
    operation: operation(id),
    keyless: false,
    input,
    run: async (args, ctx) => {
      const req = toRequest(args)
      const handler = companyHandlers[id] as Handler<any>
      const out = (await handler({ params: req.params ?? {}, query: req.query ?? {}, body: req.body, headers: NO_HEADERS, signal: ctx.signal, deps: ctx.deps, state: ctx.state, now: ctx.now, principal: ctx.principal })) as HandlerOutput
      return { result: out.data, meta: out.meta ?? {}, justification, ...(out.precomputed ? { hash: out.precomputed.hash } : {}) }
    },
  }
}
