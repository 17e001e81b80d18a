import type { Sql } from '../../store/db.ts'
import type * as accounts from '../../store/accounts.ts'
import { windowHits } from '../../store/rate-limits.ts'
import { PLAN_LIMITS, windowStart } from './limits.ts'
import type { Plan } from './types.ts'

export interface KeyUsage {
  key_id: string
  display_prefix: string
  minute: { used: number; resets_at: string }
  day: { used: number; resets_at: string; description: string }
}

/** Ceilings of the plan and each key's use of the current minute and UTC day. */
export async function usageOf(
  sql: Sql,
  tier: Plan,
  keys: accounts.KeyRow[],
  now: Date,
): Promise<{ tier: Plan; ceilings: (typeof PLAN_LIMITS)[Plan]; keys: KeyUsage[] }> {
  const minute = windowStart(now, 'minute')
  const day = windowStart(now, 'day')
  return {
    tier,
    ceilings: PLAN_LIMITS[tier],
    keys: await Promise.all(
      keys.map(async (k) => ({
        key_id: k.id,
        display_prefix: k.display_prefix,
        minute: {
          used: await windowHits(sql, `key:${k.id}:minute`, minute),
          resets_at: new Date(minute.getTime() + 60_000).toISOString(),
        },
        day: {
          used: await windowHits(sql, `key:${k.id}:day`, day),
          resets_at: new Date(day.getTime() + 86_400_000).toISOString(),
          description: 'per-day ceilings reset at 00:00 UTC',
        },
      })),
    ),
  }
}
