import { expect, test } from 'bun:test'
import {
  acquireActionLock,
  activatePrincipal,
  bindSystemUser,
  ensurePrincipal,
  findDelegation,
  findPrincipal,
  insertRevocations,
  openGrant,
  recordAgencyAnswer,
  releaseActionLock,
  revokePrincipalRow,
  type DelegationRow,
} from '../../src/store/delegations.ts'
import { PINNED_NOW, testDatabase } from '../helpers.ts'

const NOW = new Date(PINNED_NOW)
const ORG = '984661185'

async function consumer(): Promise<string> {
  const { sql } = await testDatabase()
  const [row] = await sql<
    { id: string }[]
  >`insert into consumers (email) values (${`${crypto.randomUUID()}@example.test`}) returning id`
  return row!.id
}

async function principal(state: 'pending' | 'active' | 'revoked' = 'pending') {
  const { sql } = await testDatabase()
  const c = await consumer()
  const id = crypto.randomUUID()
  await ensurePrincipal(sql, c, id, ORG, NOW)
  if (state !== 'pending') await activatePrincipal(sql, c, id, NOW)
  if (state === 'revoked') await revokePrincipalRow(sql, c, id, 'test', NOW)
  return { sql, c, id }
}

test('the database refuses to bring a revoked principal back to active', async () => {
  const { sql, c, id } = await principal('revoked')
  await expect(
    sql`update agent_principals set state = 'active', revoked_at = null where consumer_id = ${c} and id = ${id}`,
  ).rejects.toThrow(/never resurrected/)
  expect((await findPrincipal(sql, c, id))!.state).toBe('revoked')
})

test('the database refuses to rebind a principal to another system user', async () => {
  const { sql, c, id } = await principal('active')
  const first = crypto.randomUUID()
  expect(await bindSystemUser(sql, c, id, first, NOW)).toBe(true)
  await expect(
    sql`update agent_principals set system_user_id = ${crypto.randomUUID()} where consumer_id = ${c} and id = ${id}`,
  ).rejects.toThrow(/bound to system user/)
  expect(await bindSystemUser(sql, c, id, crypto.randomUUID(), NOW)).toBe(false)
  expect((await findPrincipal(sql, c, id))!.system_user_id).toBe(first)
})

test('the database refuses to delete a principal or a delegation', async () => {
  const { sql, c, id } = await principal('active')
  const g = (await openGrant(sql, {
    id: crypto.randomUUID(),
    consumerId: c,
    principalId: id,
    orgNumber: ORG,
    scopes: ['skatteetaten:mva-melding'],
    now: NOW,
    maxOpen: 100,
  })) as DelegationRow
  await expect(sql`delete from delegations where id = ${g.id}`).rejects.toThrow(/never deleted/)
  await expect(sql`delete from agent_principals where consumer_id = ${c} and id = ${id}`).rejects.toThrow(
    /never deleted/,
  )
})

test('an active principal cannot return to pending', async () => {
  const { sql, c, id } = await principal('active')
  await expect(
    sql`update agent_principals set state = 'pending' where consumer_id = ${c} and id = ${id}`,
  ).rejects.toThrow(/cannot return to pending/)
})

test('a revocation marker supersedes its grant, which is frozen from then on', async () => {
  const { sql, c, id } = await principal('active')
  const g = (await openGrant(sql, {
    id: crypto.randomUUID(),
    consumerId: c,
    principalId: id,
    orgNumber: ORG,
    scopes: ['skatteetaten:mva-melding'],
    now: NOW,
    maxOpen: 100,
  })) as DelegationRow
  expect(
    await recordAgencyAnswer(
      sql,
      g.id,
      { requestId: 'r1', delegationUrl: 'http://x/approve', status: 'pending', systemUserId: null },
      NOW,
    ),
  ).toBe(true)
  const superseded = await insertRevocations(sql, c, id, 'no longer needed', NOW)
  expect(superseded.map((s) => s.id)).toEqual([g.id])
  expect((await findDelegation(sql, g.id))!.revoked).toBe(true)
  // the approval arriving after the revocation changes nothing
  expect(
    await recordAgencyAnswer(
      sql,
      g.id,
      { requestId: 'r1', delegationUrl: 'http://x/approve', status: 'active', systemUserId: crypto.randomUUID() },
      NOW,
    ),
  ).toBe(false)
  await expect(sql`update delegations set status = 'active' where id = ${g.id}`).rejects.toThrow(/superseded/)
  expect((await findDelegation(sql, g.id))!.status).toBe('pending')
})

test('a second revocation of the same grants inserts no second marker', async () => {
  const { sql, c, id } = await principal('active')
  await openGrant(sql, {
    id: crypto.randomUUID(),
    consumerId: c,
    principalId: id,
    orgNumber: ORG,
    scopes: ['skatteetaten:mva-melding'],
    now: NOW,
    maxOpen: 100,
  })
  const [a, b] = await Promise.all([insertRevocations(sql, c, id, 'a', NOW), insertRevocations(sql, c, id, 'b', NOW)])
  expect(a.length + b.length).toBe(1)
  const rows = await sql`select id from delegations where principal_id = ${id} and kind = 'revocation'`
  expect(rows).toHaveLength(1)
})

test('a principal whose revocation has begun is not activated by a racing request', async () => {
  const { sql, c, id } = await principal('pending')
  await openGrant(sql, {
    id: crypto.randomUUID(),
    consumerId: c,
    principalId: id,
    orgNumber: ORG,
    scopes: ['skatteetaten:mva-melding'],
    now: NOW,
    maxOpen: 100,
  })
  await insertRevocations(sql, c, id, 'stop', NOW)
  expect(await activatePrincipal(sql, c, id, NOW)).toBe(false)
  expect((await findPrincipal(sql, c, id))!.state).toBe('pending')
})

test('concurrent requests for one principal open one grant', async () => {
  const { sql, c, id } = await principal('pending')
  const grants = await Promise.all(
    Array.from({ length: 5 }, () =>
      openGrant(sql, {
        id: crypto.randomUUID(),
        consumerId: c,
        principalId: id,
        orgNumber: ORG,
        scopes: ['skatteetaten:mva-melding'],
        now: NOW,
        maxOpen: 100,
      }),
    ),
  )
  expect(new Set(grants.map((g) => (g as DelegationRow).id)).size).toBe(1)
})

test('a delegation cannot go back from active to pending', async () => {
  const { sql, c, id } = await principal('active')
  const g = (await openGrant(sql, {
    id: crypto.randomUUID(),
    consumerId: c,
    principalId: id,
    orgNumber: ORG,
    scopes: ['skatteetaten:mva-melding'],
    now: NOW,
    maxOpen: 100,
  })) as DelegationRow
  await recordAgencyAnswer(
    sql,
    g.id,
    { requestId: 'r', delegationUrl: 'u', status: 'active', systemUserId: crypto.randomUUID() },
    NOW,
  )
  await expect(sql`update delegations set status = 'pending' where id = ${g.id}`).rejects.toThrow(
    /cannot go from active to pending/,
  )
})

test('a conflict lock is one holder’s until it expires, and its holder may re-enter it', async () => {
  const { sql } = await testDatabase()
  const lock = {
    org: ORG,
    kind: 'mva_melding',
    period: `2026-T${Math.ceil(Math.random() * 6)}-${crypto.randomUUID().slice(0, 6)}`,
  }
  const first = crypto.randomUUID()
  expect(
    await acquireActionLock(sql, { ...lock, holder: 'key:a|idempotency:1', attempt: first, now: NOW, ttlMs: 600_000 }),
  ).toEqual({ acquired: true, owned: true })
  expect(
    await acquireActionLock(sql, {
      ...lock,
      holder: 'key:a|idempotency:1',
      attempt: crypto.randomUUID(),
      now: NOW,
      ttlMs: 600_000,
    }),
  ).toEqual({ acquired: true, owned: false })
  const refused = await acquireActionLock(sql, {
    ...lock,
    holder: 'key:b|idempotency:2',
    attempt: crypto.randomUUID(),
    now: new Date(NOW.getTime() + 1000),
    ttlMs: 600_000,
  })
  expect(refused).toEqual({ acquired: false, expiresAt: new Date(NOW.getTime() + 600_000) })
  expect(
    await acquireActionLock(sql, {
      ...lock,
      holder: 'key:b|idempotency:2',
      attempt: crypto.randomUUID(),
      now: new Date(NOW.getTime() + 600_000),
      ttlMs: 600_000,
    }),
  ).toEqual({ acquired: true, owned: true })
})

test('only the attempt that owns a conflict lock releases it; a retry that re-entered it does not', async () => {
  const { sql } = await testDatabase()
  const lock = { org: ORG, kind: 'mva_melding', period: crypto.randomUUID().slice(0, 12) }
  const owner = { ...lock, holder: 'key:a|idempotency:1', attempt: crypto.randomUUID() }
  await acquireActionLock(sql, { ...owner, now: NOW, ttlMs: 600_000 })
  const retry = { ...owner, attempt: crypto.randomUUID() }
  await acquireActionLock(sql, { ...retry, now: NOW, ttlMs: 600_000 })
  await releaseActionLock(sql, retry)
  await releaseActionLock(sql, { ...lock, holder: 'key:b|idempotency:2', attempt: owner.attempt })
  expect(
    (
      await acquireActionLock(sql, {
        ...lock,
        holder: 'key:b|idempotency:2',
        attempt: crypto.randomUUID(),
        now: NOW,
        ttlMs: 600_000,
      })
    ).acquired,
  ).toBe(false)
  await releaseActionLock(sql, owner)
  expect(
    (
      await acquireActionLock(sql, {
        ...lock,
        holder: 'key:b|idempotency:2',
        attempt: crypto.randomUUID(),
        now: NOW,
        ttlMs: 600_000,
      })
    ).acquired,
  ).toBe(true)
})

test('another filing of the same key (another Idempotency-Key) meets the lock', async () => {
  const { sql } = await testDatabase()
  const lock = { org: ORG, kind: 'mva_melding', period: crypto.randomUUID().slice(0, 12) }
  await acquireActionLock(sql, {
    ...lock,
    holder: 'key:a|idempotency:1',
    attempt: crypto.randomUUID(),
    now: NOW,
    ttlMs: 600_000,
  })
  expect(
    (
      await acquireActionLock(sql, {
        ...lock,
        holder: 'key:a|idempotency:2',
        attempt: crypto.randomUUID(),
        now: NOW,
        ttlMs: 600_000,
      })
    ).acquired,
  ).toBe(false)
})

test('an expired lock taken over is the new attempt’s: the dead attempt’s release leaves it, the new attempt’s frees it', async () => {
  const { sql } = await testDatabase()
  const lock = { org: ORG, kind: 'mva_melding', period: crypto.randomUUID().slice(0, 12) }
  const dead = { ...lock, holder: 'key:a|idempotency:1', attempt: crypto.randomUUID() }
  await acquireActionLock(sql, { ...dead, now: NOW, ttlMs: 600_000 })
  const later = new Date(NOW.getTime() + 600_000)
  const taker = { ...lock, holder: 'key:b|idempotency:2', attempt: crypto.randomUUID() }
  expect(await acquireActionLock(sql, { ...taker, now: later, ttlMs: 600_000 })).toEqual({
    acquired: true,
    owned: true,
  })
  await releaseActionLock(sql, dead)
  expect(
    (await acquireActionLock(sql, { ...dead, attempt: crypto.randomUUID(), now: later, ttlMs: 600_000 })).acquired,
  ).toBe(false)
  await releaseActionLock(sql, taker)
  expect(
    (await acquireActionLock(sql, { ...dead, attempt: crypto.randomUUID(), now: later, ttlMs: 600_000 })).acquired,
  ).toBe(true)
})

test('the same holder re-entering its own expired lock takes it over: it owns it then', async () => {
  const { sql } = await testDatabase()
  const lock = {
    org: ORG,
    kind: 'mva_melding',
    period: crypto.randomUUID().slice(0, 12),
    holder: 'key:a|idempotency:1',
  }
  await acquireActionLock(sql, { ...lock, attempt: crypto.randomUUID(), now: NOW, ttlMs: 600_000 })
  expect(
    await acquireActionLock(sql, {
      ...lock,
      attempt: crypto.randomUUID(),
      now: new Date(NOW.getTime() + 600_000),
      ttlMs: 600_000,
    }),
  ).toEqual({ acquired: true, owned: true })
})

test('no grant is opened for a revoked principal', async () => {
  const { sql, c, id } = await principal('revoked')
  expect(
    await openGrant(sql, {
      id: crypto.randomUUID(),
      consumerId: c,
      principalId: id,
      orgNumber: ORG,
      scopes: ['skatteetaten:mva-melding'],
      now: NOW,
      maxOpen: 100,
    }),
  ).toBeNull()
})
