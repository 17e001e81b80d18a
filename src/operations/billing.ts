/** Prepaid credits: the balance, top-up requests, the price list. */
import * as A from '../schemas/access.ts'
import { CACHE, op, type Operation } from './define.ts'

export const billingOperations = [
  op({
    id: 'getCreditBalance',
    testKeys: 'own-account',
    summaryNb: 'Forhåndsbetalt saldo for nøkkelens konto',
    method: 'GET',
    path: '/api/v1/account/credits/balance',
    category: 'B',
    format: 'envelope',
    tag: 'Billing',
    summary: 'The prepaid credit balance of the key’s account',
    description: 'Any valid key; no scope needed. Read only.',
    response: A.Balance,
    mcpTool: 'get_credit_balance',
  }),
  op({
    id: 'createTopupRequest',
    testKeys: 'own-account',
    summaryNb: 'Be en person godkjenne en påfylling',
    method: 'POST',
    path: '/api/v1/billing/topup-requests',
    category: 'B',
    format: 'envelope',
    tag: 'Billing',
    summary: 'Ask a person to approve a top-up',
    description:
      'Any valid key, no scope. Nothing is charged: the answer carries `approval_url`, where the signed-in owner ' +
      'approves. Minimum 1000 øre, ceiling 100000 øre at launch; at most 3 pending per account; 5 requests an hour ' +
      'per key; a request expires after 24 hours. Supports `Idempotency-Key`.',
    request: { body: A.TopupBody },
    response: A.Topup,
    successStatus: 201,
    idempotency: 'optional',
    errors: ['TOPUP_BELOW_MINIMUM', 'TOPUP_CEILING_EXCEEDED'],
    limits: [{ per: 'key', max: 5, window: 'hour', code: 'RATE_LIMITED' }],
  }),
  op({
    id: 'getPricing',
    mcpResource: { uri: 'plikt://pricing', name: 'pricing' },
    cache: CACHE.pricing,
    summaryNb: 'Priser på betalte kall, grenser for påfylling og hvordan du løser en 402',
    method: 'GET',
    path: '/api/v1/pricing',
    category: 'A',
    format: 'envelope',
    tag: 'Billing',
    summary: 'Prices of metered operations, top-up bounds and the 402 recovery contract',
    response: A.Pricing,
    mcpTool: 'get_pricing',
  }),
] as const satisfies readonly Operation[]
