import { AppError } from '../errors/app-error.ts'
import { mintKey, revokeKey } from '../domain/access/keys.ts'
import { createConsumer, updateConsumer } from '../domain/access/consumers.ts'
import { approveTopupByOperator, creditByOperator } from '../domain/billing/topups.ts'
import * as accounts from '../store/accounts.ts'
import { openPrivacyRequests } from '../store/privacy.ts'
import type {
  PrivacyRequestsQuery,
  AdminConsumerBody,
  AdminConsumerPatch,
  AdminCreditsBody,
  AdminKeysQuery,
  AdminMintKeyBody,
  IdParam,
  OutboxQuery,
} from '../schemas/access.ts'
import type { Handler } from '../pipeline/context.ts'
import type { JobParams } from '../schemas/jobs.ts'
import { keyMetadata } from './account.ts'
import { topupView } from './billing.ts'

const consumerView = (c: accounts.ConsumerRow) => ({
  id: c.id,
  email: c.email,
  company_name: c.company_name,
  tier: c.tier,
  active: c.active,
  created_at: c.created_at.toISOString(),
})

export const adminHandlers = {
  adminCreateKey: (async ({ body, deps, state }) => {
    const minted = await mintKey(
      deps.sql,
      body.consumer_id,
      {
        ...(body.scopes ? { scopes: body.scopes } : {}),
        ...(body.label ? { label: body.label } : {}),
        source: 'admin',
        test: body.test === true,
      },
      { actor: 'admin', correlationId: state.correlationId },
    )
    return { data: { plaintext_key: minted.plaintext_key, scopes: minted.key.scopes, key: keyMetadata(minted.key) } }
  }) satisfies Handler<{ body: typeof AdminMintKeyBody }>,

  adminListKeys: (async ({ query, deps }) => {
    if (!(await accounts.findConsumer(deps.sql, query.consumer_id))) throw new AppError('NOT_FOUND')
    return { data: { keys: (await accounts.listKeys(deps.sql, query.consumer_id, true)).map(keyMetadata) } }
  }) satisfies Handler<{ query: typeof AdminKeysQuery }>,

  adminRevokeKey: (async ({ params, deps, state }) => {
    const r = await revokeKey(deps.sql, params.id, null, { actor: 'admin', correlationId: state.correlationId })
    return {
      data: {
        id: r.key.id,
        is_revoked: true,
        revoked_at: r.key.revoked_at!.toISOString(),
        already_revoked: r.already_revoked,
      },
    }
  }) satisfies Handler<{ params: typeof IdParam }>,

  adminCreateConsumer: (async ({ body, deps, state }) => {
    const { consumer, created } = await createConsumer(
      deps.sql,
      { email: body.email, companyName: body.company_name ?? null, tier: body.tier },
      { actor: 'admin', correlationId: state.correlationId },
    )
    return {
      status: created ? 201 : 200,
      data: { consumer_id: consumer.id, created, consumer: consumerView(consumer) },
    }
  }) satisfies Handler<{ body: typeof AdminConsumerBody }>,

  adminUpdateConsumer: (async ({ params, body, deps, state }) => {
    const c = await updateConsumer(deps.sql, params.id, body, { actor: 'admin', correlationId: state.correlationId })
    if (!c) throw new AppError('NOT_FOUND')
    return { data: { consumer_id: c.id, created: false, consumer: consumerView(c) } }
  }) satisfies Handler<{ params: typeof IdParam; body: typeof AdminConsumerPatch }>,

  adminAddCredits: (async ({ body, deps, state }) => {
    const balance = await creditByOperator(
      deps.sql,
      body.consumer_id,
      body.amount_ore,
      body.reason,
      state.correlationId,
    )
    return { data: { consumer_id: body.consumer_id, balance_ore: balance } }
  }) satisfies Handler<{ body: typeof AdminCreditsBody }>,

  adminBackup: (async ({ deps }) => {
    if (!deps.backup)
      throw new AppError('NOT_FOUND', {
        extra: {
          reason:
            'backups over the operator API are of the embedded database; this instance runs on PostgreSQL — use pg_dump',
        },
      })
    const blob = await deps.backup()
    return new Response(blob, {
      headers: {
        'content-type': 'application/gzip',
        'content-disposition': 'attachment; filename="plikt-backup.tar.gz"',
        'cache-control': 'private, no-store',
      },
    })
  }) satisfies Handler,

  adminListOutbox: (async ({ query, deps }) => {
    const rows = await accounts.listOutbox(deps.sql, query.limit ?? 20)
    return {
      data: {
        emails: rows.map((r) => ({
          id: r.id,
          to: r.to_email,
          subject: r.subject,
          body: r.body_text,
          created_at: r.created_at.toISOString(),
        })),
      },
    }
  }) satisfies Handler<{ query: typeof OutboxQuery }>,

  adminListPrivacyRequests: (async ({ query, deps }) => {
    const rows = await openPrivacyRequests(deps.sql, query.limit ?? 50)
    return {
      data: {
        requests: rows.map((r) => ({
          id: r.id,
          email: r.email,
          request_type: r.request_type,
          details: r.details,
          status: r.status,
          received_at: r.received_at.toISOString(),
          respond_by: r.respond_by.toISOString(),
        })),
      },
    }
  }) satisfies Handler<{ query: typeof PrivacyRequestsQuery }>,

  adminListJobs: (async ({ deps }) => ({ data: { jobs: await deps.jobs.list() } })) satisfies Handler,

  adminRunJob: (async ({ params, deps }) => {
    const outcome = await deps.jobs.runNow(params.name)
    if (!outcome) throw new AppError('NOT_FOUND', { extra: { reason: `no job named ${params.name}` } })
    return { data: outcome }
  }) satisfies Handler<{ params: typeof JobParams }>,

  adminApproveTopup: (async ({ params, deps, now, state }) => {
    const done = await approveTopupByOperator(deps.sql, params.id, now, state.correlationId)
    return { data: { topup: topupView(done.topup, deps.config.baseUrl), balance_ore: done.balance_ore } }
  }) satisfies Handler<{ params: typeof IdParam }>,
}
