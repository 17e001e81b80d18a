/**
 * The operator's changes to accounts. Each change and its audit row are one transaction: an
 * account never exists, or changes plan, without the row that says who did it.
 */
import type { Sql } from '../../store/db.ts'
import * as accounts from '../../store/accounts.ts'
import { appendAudit } from '../../store/audit.ts'
import { normaliseEmail } from './signin.ts'
import type { Plan } from './types.ts'

export interface AuditActor {
  actor: string
  correlationId: string
}

/** Creates the account, or finds the one with this e-mail (then nothing changes and nothing is audited). */
export function createConsumer(
  sql: Sql,
  c: { email: string; companyName: string | null; tier: Plan },
  by: AuditActor,
): Promise<{ consumer: accounts.ConsumerRow; created: boolean }> {
  return sql.begin(async (tx) => {
    const t = tx as unknown as Sql
    const out = await accounts.upsertConsumer(t, normaliseEmail(c.email), c.companyName, c.tier)
    if (out.created)
      await appendAudit(t, {
        consumerId: out.consumer.id,
        actor: by.actor,
        action: 'consumer_created',
        correlationId: by.correlationId,
        details: { tier: c.tier },
      })
    return out
  }) as Promise<{ consumer: accounts.ConsumerRow; created: boolean }>
}

/** Changes plan or active state; null when there is no such account. */
export function updateConsumer(
  sql: Sql,
  id: string,
  patch: { tier?: Plan; active?: boolean },
  by: AuditActor,
): Promise<accounts.ConsumerRow | null> {
  return sql.begin(async (tx) => {
    const t = tx as unknown as Sql
    const c = await accounts.updateConsumer(t, id, patch)
    if (c)
      await appendAudit(t, {
        consumerId: c.id,
        actor: by.actor,
        action: 'consumer_updated',
        correlationId: by.correlationId,
        details: { tier: patch.tier ?? null, active: patch.active ?? null },
      })
    return c
  }) as Promise<accounts.ConsumerRow | null>
}
