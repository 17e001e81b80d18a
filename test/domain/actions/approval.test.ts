import { describe, expect, test } from 'bun:test'
import { actionIdOf } from '../../../src/domain/actions/action-id.ts'
import {
  APPROVAL_TOKEN_LIFETIME_MS,
  checkApprovalToken,
  consumeApprovalToken,
  mintApprovalToken,
} from '../../../src/domain/actions/approval.ts'
import { decideApprovalToken } from '../../../src/store/approval-tokens.ts'
import { AppError } from '../../../src/errors/app-error.ts'
import { PINNED_NOW, testDatabase } from '../../helpers.ts'

const NOW = new Date(PINNED_NOW)
const ORG = '984661185'
const ACTION = actionIdOf({
  org_number: ORG,
  action_type: 'mva_melding',
  period: '2026-T1',
  payload: { total_revenue_nok: 1 },
})
const OTHER_ACTION = actionIdOf({
  org_number: ORG,
  action_type: 'mva_melding',
  period: '2026-T1',
  payload: { total_revenue_nok: 2 },
})
const at = (ms: number) => new Date(NOW.getTime() + ms)
/** A namespace of its own per test, so a PostgreSQL database reused across runs does not matter. */
const ns = () => `sandbox:${crypto.randomUUID().slice(0, 8)}`

async function codeOf(p: Promise<unknown>): Promise<string> {
  const e = await p.then(
    () => null,
    (err: unknown) => err,
  )
  if (!(e instanceof AppError)) throw new Error(`expected an AppError, got ${String(e)}`)
  return e.code
}

async function minted(namespace = ns()) {
  const { sql } = await testDatabase()
  const { token, expires_at } = await mintApprovalToken(sql, { namespace, org_number: ORG, action_id: ACTION }, NOW, {
    confirmation: 'automatic',
  })
  return { sql, namespace, token, expires_at, target: { namespace, token, org_number: ORG, action_id: ACTION } }
}

test('the lifetime is 15 minutes', () => {
  expect(APPROVAL_TOKEN_LIFETIME_MS).toBe(15 * 60 * 1000)
})

test('a minted token is apt_ and a 190-bit secret, expiring after the lifetime', async () => {
  const { token, expires_at } = await minted()
  expect(token).toMatch(/^apt_[0-9A-Za-z]{32}$/)
  expect(expires_at.toISOString()).toBe(at(APPROVAL_TOKEN_LIFETIME_MS).toISOString())
})

test('a valid token checks out and is not consumed by the check', async () => {
  const { sql, target } = await minted()
  const id = await checkApprovalToken(sql, target, NOW, null)
  expect(await checkApprovalToken(sql, target, at(1000), null)).toBe(id)
})

describe('a token is refused', () => {
  test.each([[null], [undefined], ['']])('as REQUIRED when it is %p', async (token) => {
    const { sql, target } = await minted()
    expect(await codeOf(checkApprovalToken(sql, { ...target, token }, NOW, null))).toBe('APPROVAL_TOKEN_REQUIRED')
  })

  test.each([
    ['garbage', 'garbage'],
    ['the bare prefix', 'apt_'],
    ['a well-formed unknown token', 'apt_00000000000000000000000000000000'],
    ['an over-long token', `apt_${'x'.repeat(500)}`],
  ])('as INVALID when it is %s', async (_what, token) => {
    const { sql, target } = await minted()
    expect(await codeOf(checkApprovalToken(sql, { ...target, token }, NOW, null))).toBe('APPROVAL_TOKEN_INVALID')
  })

  test('as INVALID when presented in another namespace', async () => {
    const { sql, target } = await minted()
    expect(await codeOf(checkApprovalToken(sql, { ...target, namespace: ns() }, NOW, null))).toBe(
      'APPROVAL_TOKEN_INVALID',
    )
  })

  test('as INVALID when one character differs from the issued one', async () => {
    const { sql, target } = await minted()
    const altered = `${target.token.slice(0, -1)}${target.token.endsWith('a') ? 'b' : 'a'}`
    expect(await codeOf(checkApprovalToken(sql, { ...target, token: altered }, NOW, null))).toBe(
      'APPROVAL_TOKEN_INVALID',
    )
  })

  test('as EXPIRED at the end of its lifetime, and not a millisecond before', async () => {
    const { sql, target } = await minted()
    await checkApprovalToken(sql, target, at(APPROVAL_TOKEN_LIFETIME_MS - 1), null)
    expect(await codeOf(checkApprovalToken(sql, target, at(APPROVAL_TOKEN_LIFETIME_MS), null))).toBe(
      'APPROVAL_TOKEN_EXPIRED',
    )
  })

  test('as MISMATCH for another organisation', async () => {
    const { sql, target } = await minted()
    expect(await codeOf(checkApprovalToken(sql, { ...target, org_number: '923609016' }, NOW, null))).toBe(
      'APPROVAL_TOKEN_MISMATCH',
    )
  })

  test('as MISMATCH for another action', async () => {
    const { sql, target } = await minted()
    expect(await codeOf(checkApprovalToken(sql, { ...target, action_id: OTHER_ACTION }, NOW, null))).toBe(
      'APPROVAL_TOKEN_MISMATCH',
    )
  })

  test('as USED after consumption, whatever it is presented for', async () => {
    const { sql, target } = await minted()
    expect(await consumeApprovalToken(sql, await checkApprovalToken(sql, target, NOW, null), NOW, null)).toBe(true)
    expect(await codeOf(checkApprovalToken(sql, target, NOW, null))).toBe('APPROVAL_TOKEN_USED')
    expect(await codeOf(checkApprovalToken(sql, { ...target, action_id: OTHER_ACTION }, NOW, null))).toBe(
      'APPROVAL_TOKEN_USED',
    )
    expect(await codeOf(checkApprovalToken(sql, target, at(APPROVAL_TOKEN_LIFETIME_MS * 2), null))).toBe(
      'APPROVAL_TOKEN_USED',
    )
  })
})

describe('consumption', () => {
  test('happens once: a second consume of the same token loses', async () => {
    const { sql, target } = await minted()
    const id = await checkApprovalToken(sql, target, NOW, null)
    expect(await consumeApprovalToken(sql, id, NOW, null)).toBe(true)
    expect(await consumeApprovalToken(sql, id, NOW, null)).toBe(false)
  })

  test('of a token that expired after its check fails', async () => {
    const { sql, target } = await minted()
    const id = await checkApprovalToken(sql, target, NOW, null)
    expect(await consumeApprovalToken(sql, id, at(APPROVAL_TOKEN_LIFETIME_MS), null)).toBe(false)
  })

  test('by 10 parallel requests lets exactly one win', async () => {
    const { sql, target } = await minted()
    const id = await checkApprovalToken(sql, target, NOW, null)
    const results = await Promise.all(Array.from({ length: 10 }, () => consumeApprovalToken(sql, id, NOW, null)))
    expect(results.filter(Boolean)).toHaveLength(1)
  })

  test('by 10 parallel check-then-consume requests lets exactly one win; every loser is told USED', async () => {
    const { sql, target } = await minted()
    // A loser either passes the check and loses the update, or checks after the winner consumed.
    const attempt = async () => {
      if (await consumeApprovalToken(sql, await checkApprovalToken(sql, target, NOW, null), NOW, null)) return 'won'
      return 'APPROVAL_TOKEN_USED'
    }
    const outcomes = await Promise.all(Array.from({ length: 10 }, () => attempt().catch((e: AppError) => e.code)))
    expect(outcomes.filter((o) => o === 'won')).toHaveLength(1)
    expect(outcomes.filter((o) => o === 'APPROVAL_TOKEN_USED')).toHaveLength(9)
  })
})

test('minting refuses a malformed organisation number or action id', async () => {
  const { sql } = await testDatabase()
  expect(
    await codeOf(
      mintApprovalToken(sql, { namespace: ns(), org_number: '98466118', action_id: ACTION }, NOW, {
        confirmation: 'automatic',
      }),
    ),
  ).toBe('VALIDATION_FAILED')
  expect(
    await codeOf(
      mintApprovalToken(sql, { namespace: ns(), org_number: ORG, action_id: 'act_XYZ' }, NOW, {
        confirmation: 'automatic',
      }),
    ),
  ).toBe('VALIDATION_FAILED')
})

describe('a token a person must confirm (production)', () => {
  const PERSON = { url: (id: string) => `https://plikt.example/approvals/${id}` }
  const CONTENT = { org_number: ORG, action_type: 'mva_melding', period: '2026-T1', payload: { total_revenue_nok: 1 } }

  async function awaiting() {
    const { sql } = await testDatabase()
    const namespace = ns()
    const m = await mintApprovalToken(sql, { namespace, org_number: ORG, action_id: ACTION }, NOW, {
      confirmation: 'person',
      action: CONTENT,
    })
    return {
      sql,
      namespace,
      id: m.id,
      minted: m,
      target: { namespace, token: m.token, org_number: ORG, action_id: ACTION },
    }
  }

  test('is minted awaiting, with the content the person will see', async () => {
    const { sql, id, minted } = await awaiting()
    expect(minted.confirmation).toBe('awaiting')
    const [row] = await sql`select confirmation, action from approval_tokens where id = ${id}`
    expect(row!.confirmation).toBe('awaiting')
    expect(row!.action).toEqual(CONTENT)
  })

  test('is UNCONFIRMED, naming its page, until decided; the sandbox’s gate (null) does not ask', async () => {
    const { sql, id, target } = await awaiting()
    const e = await checkApprovalToken(sql, target, NOW, PERSON).catch((x: AppError) => x)
    expect(e).toBeInstanceOf(AppError)
    expect((e as AppError).code).toBe('APPROVAL_TOKEN_UNCONFIRMED')
    expect((e as AppError).options.extra).toMatchObject({
      confirmation_url: `https://plikt.example/approvals/${id}`,
      confirmation_state: 'awaiting_confirmation',
    })
    expect(await checkApprovalToken(sql, target, NOW, null)).toBe(id)
  })

  test('cannot be spent unconfirmed, even by a caller that skipped the check', async () => {
    const { sql, id } = await awaiting()
    expect(await consumeApprovalToken(sql, id, NOW, PERSON)).toBe(false)
    const [row] = await sql`select consumed_at from approval_tokens where id = ${id}`
    expect(row!.consumed_at).toBeNull()
  })

  test('confirmed, it checks and spends once; a decline that lands after the check stops the spend', async () => {
    const confirmed = await awaiting()
    await decideApprovalToken(confirmed.sql, {
      namespace: confirmed.namespace,
      id: confirmed.id,
      decision: 'confirmed',
      by: 'session:s1',
      now: NOW,
    })
    expect(
      await consumeApprovalToken(
        confirmed.sql,
        await checkApprovalToken(confirmed.sql, confirmed.target, NOW, PERSON),
        NOW,
        PERSON,
      ),
    ).toBe(true)

    const raced = await awaiting()
    await decideApprovalToken(raced.sql, {
      namespace: raced.namespace,
      id: raced.id,
      decision: 'confirmed',
      by: 'session:s1',
      now: NOW,
    })
    const id = await checkApprovalToken(raced.sql, raced.target, NOW, PERSON)
    // (the owner cannot decline a confirmed token through the page; the row is changed here to show the spend's own condition)
    await raced.sql`update approval_tokens set confirmation = 'declined' where id = ${id}`
    expect(await consumeApprovalToken(raced.sql, id, NOW, PERSON)).toBe(false)
    expect(await codeOf(checkApprovalToken(raced.sql, raced.target, NOW, PERSON))).toBe('APPROVAL_TOKEN_DECLINED')
  })

  test('is decided once: a second decision finds nothing open', async () => {
    const { sql, namespace, id } = await awaiting()
    expect(
      await decideApprovalToken(sql, { namespace, id, decision: 'declined', by: 'session:s1', now: NOW }),
    ).not.toBeNull()
    expect(
      await decideApprovalToken(sql, { namespace, id, decision: 'confirmed', by: 'session:s2', now: NOW }),
    ).toBeNull()
    expect(
      await decideApprovalToken(sql, { namespace: ns(), id, decision: 'confirmed', by: 'session:s3', now: NOW }),
    ).toBeNull()
  })

  test('the database refuses a decision without who and when', async () => {
    const { sql, id } = await awaiting()
    await expect(sql`update approval_tokens set confirmation = 'confirmed' where id = ${id}`).rejects.toThrow(/check/i)
  })
})
