/**
 * Every second, on every instance: the webhook delivery sweep (domain/webhooks/sweep.ts). Each
 * delivery is claimed on its own (FOR UPDATE SKIP LOCKED), so instances share the queue without
 * sending an attempt twice, a delivery whose sweeper died is claimed again after its lease, and
 * no subscription has more than PER_TARGET attempts in flight across the instances.
 */
import { sweepDeliveries, type SweepResult } from '../src/domain/webhooks/sweep.ts'
import type { QueueJobDeps } from './runner.ts'

export async function runWebhookDeliveries(deps: QueueJobDeps): Promise<SweepResult> {
  if (!deps.webhooks || !deps.serverKeys) throw new Error('the webhook sweep needs the webhook transport and the server keys')
  return sweepDeliveries({ ...deps, transport: deps.webhooks.transport, policy: deps.webhooks.policy, secretKey: deps.serverKeys.webhookSecrets })
}
