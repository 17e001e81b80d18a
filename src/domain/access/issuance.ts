/**
 * Issuance tokens: the headless path to a key. The owner mints one in the dashboard (24 h, single
 * use, at most 3 outstanding); an agent redeems it for a `read:*` key. Every failure to redeem is
 * the same ISSUANCE_TOKEN_INVALID, and a full account keeps the token for later.
 */
import { AppError } from '../../errors/app-error.ts'
import { displayPrefix, hashSecret, newSecret } from '../../lib/tokens.ts'
import type { Sql } from '../../store/db.ts'
import * as accounts from '../../store/accounts.ts'
import { appendAudit } from '../../store/audit.ts'
import { mintKeyIn, type Actor, type MintedKey } from './keys.ts'
import { DEFAULT_SCOPES, ISSUANCE_PREFIX, MAX_OUTSTANDING_ISSUANCE_TOKENS } from './types.ts'

export const ISSUANCE_TOKEN_TTL_MS = 24 * 3600_000

export async function mintIssuanceToken(
  sql: Sql,
  consumerId: string,
  now: Date,
  by: Actor,
): Promise<{ token: string; row: accounts.IssuanceTokenRow }> {
  return sql.begin(async (tx) => {
    const t = tx as unknown as Sql
    await accounts.lockConsumer(t, consumerId)
    if ((await accounts.countOutstandingTokens(t, consumerId, now)) >= MAX_OUTSTANDING_ISSUANCE_TOKENS) {
      throw new AppError('VALIDATION_FAILED', {
        details: [
          {
            field: 'issuance_tokens',
            message: `at most ${MAX_OUTSTANDING_ISSUANCE_TOKENS} unredeemed tokens may be outstanding; revoke one first`,
          },
        ],
      })
    }
    const token = newSecret(ISSUANCE_PREFIX)
    const row = await accounts.insertIssuanceToken(
      t,
      consumerId,
      hashSecret(token),
      displayPrefix(token, ISSUANCE_PREFIX),
      new Date(now.getTime() + ISSUANCE_TOKEN_TTL_MS),
    )
    await appendAudit(t, {
      consumerId,
      actor: by.actor,
      action: 'issuance_token_minted',
      correlationId: by.correlationId,
      details: { token_id: row.id, display_prefix: row.display_prefix },
    })
    return { token, row }
  }) as Promise<{ token: string; row: accounts.IssuanceTokenRow }>
}

export async function revokeIssuanceToken(
  sql: Sql,
  consumerId: string,
  tokenId: string,
  by: Actor,
): Promise<accounts.IssuanceTokenRow> {
  return sql.begin(async (tx) => {
    const t = tx as unknown as Sql
    const row = await accounts.revokeIssuanceToken(t, tokenId, consumerId)
    if (!row) throw new AppError('NOT_FOUND')
    await appendAudit(t, {
      consumerId,
      actor: by.actor,
      action: 'issuance_token_revoked',
      correlationId: by.correlationId,
      details: { token_id: row.id },
    })
    return row
  }) as Promise<accounts.IssuanceTokenRow>
}

/**
 * Redeems a token for a `read:*` key. The token row is locked for the transaction, so of two
 * concurrent redemptions one issues the key and the other then finds the token used.
 */
export async function redeemIssuanceToken(
  sql: Sql,
  token: string,
  now: Date,
  correlationId: string | null,
): Promise<MintedKey> {
  // A MAX_KEYS_REACHED thrown inside rolls the transaction back, so the token stays redeemable.
  return sql.begin(async (tx) => {
    const t = tx as unknown as Sql
    const row = await accounts.lockRedeemableToken(t, hashSecret(token), now)
    if (!row) throw new AppError('ISSUANCE_TOKEN_INVALID')
    const actor = `issuance_token:${row.id}`
    // A deactivated account's token fails like any other unusable token: indistinguishably.
    const minted = await mintKeyIn(
      t,
      row.consumer_id,
      { scopes: DEFAULT_SCOPES, label: `issued from ${row.display_prefix}`, source: 'issuance' },
      { actor, correlationId },
    ).catch((e: unknown) => {
      throw e instanceof AppError && e.code === 'AUTH_CONSUMER_INACTIVE' ? new AppError('ISSUANCE_TOKEN_INVALID') : e
    })
    await accounts.markTokenRedeemed(t, row.id, minted.key.id, now)
    await appendAudit(t, {
      consumerId: row.consumer_id,
      actor,
      action: 'issuance_token_redeemed',
      correlationId,
      details: { token_id: row.id, key_id: minted.key.id },
    })
    return minted
  }) as Promise<MintedKey>
}
