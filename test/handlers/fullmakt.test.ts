import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { createHmac, timingSafeEqual } from 'node:crypto'
import { readFileSync } from 'node:fs'
import { startApp, type TestApp } from '../helpers.ts'
import { AMELDING, MVA, ORG, agent, decide, receiptKey, requestFullmakt, requestIdOf } from '../helpers.ts'

let app: TestApp
beforeAll(async () => {
  app = await startApp()
})
afterAll(() => app.stop())

/** docs/receipt-signature.md, "Delegation receipts": written from the document, not imported. */
function verifiesWith(r: Record<string, string>, key: Buffer): boolean {
  const fields = [
    'receipt_id',
    'event',
    'timestamp',
    'consumer_id',
    'agent_principal_id',
    'delegation_id',
    'org_number',
    'system_user_id',
    'scopes',
    'delegation_status',
  ].map((k) => r[k]!)
  const expected = createHmac('sha256', key)
    .update(['PLIKT-DELEGATION-v1', ...fields].join('\x1f'), 'utf8')
    .digest()
  return r.signature_algorithm === 'HMAC-SHA256-v1' && timingSafeEqual(expected, Buffer.from(r.signature!, 'hex'))
}

describe('POST /api/v1/fullmakt/request', () => {
  test('answers 201 with a delegation_url, a pending delegation and a signed receipt that verifies with the caller’s receipt key', async () => {
    const a = await agent(app)
    const principal = crypto.randomUUID()
    const res = await requestFullmakt(app, a, { agent_principal_id: principal })
    expect(res.status).toBe(201)
    const { data } = await res.json()
    expect(data).toMatchObject({
      agent_principal_id: principal,
      org_number: ORG,
      scopes: [MVA],
      delegation_status: 'pending',
      principal_state: 'active',
      system_user_id: null,
      warnings: [],
    })
    expect(data.delegation_url).toStartWith(`${app.url}/`)
    expect(data.signed_receipt).toMatchObject({
      event: 'delegation_granted',
      delegation_status: 'pending',
      consumer_id: a.consumerId,
      org_number: ORG,
      scopes: MVA,
      system_user_id: '',
    })
    expect(verifiesWith(data.signed_receipt, await receiptKey(app, a))).toBe(true)
  })

  test('another consumer’s receipt key does not verify the receipt', async () => {
    const a = await agent(app)
    const { data } = await (await requestFullmakt(app, a)).json()
    expect(verifiesWith(data.signed_receipt, await receiptKey(app, await agent(app)))).toBe(false)
  })

  test('a retry with the same principal finds the first delegation and makes no second request upstream', async () => {
    const a = await agent(app)
    const principal = crypto.randomUUID()
    const first = (await (await requestFullmakt(app, a, { agent_principal_id: principal })).json()).data
    const second = (await (await requestFullmakt(app, a, { agent_principal_id: principal })).json()).data
    expect(second.delegation_id).toBe(first.delegation_id)
    expect(second.delegation_url).toBe(first.delegation_url)
    const rows = await app.deps
      .sql`select id from mock_system_user_requests where external_ref = ${first.delegation_id}`
    expect(rows).toHaveLength(1)
  })

  test('five concurrent requests for one principal broker one delegation', async () => {
    const a = await agent(app)
    const principal = crypto.randomUUID()
    const answers = await Promise.all(
      Array.from({ length: 5 }, () => requestFullmakt(app, a, { agent_principal_id: principal }).then((r) => r.json())),
    )
    expect(new Set(answers.map((r) => r.data.delegation_id)).size).toBe(1)
    const rows = await app.deps
      .sql`select id from mock_system_user_requests where party_org_no = ${ORG} and external_ref = ${answers[0].data.delegation_id}`
    expect(rows).toHaveLength(1)
  })

  test('a principal asking for another organisation is refused with AGENT_PRINCIPAL_CONFLICT', async () => {
    const a = await agent(app)
    const principal = crypto.randomUUID()
    await requestFullmakt(app, a, { agent_principal_id: principal })
    const res = await requestFullmakt(app, a, { agent_principal_id: principal, org_number: '996501205' })
    expect(res.status).toBe(409)
    expect((await res.json()).error_code).toBe('AGENT_PRINCIPAL_CONFLICT')
  })

  test('a principal with an open delegation asking for other scopes is refused with AGENT_PRINCIPAL_CONFLICT', async () => {
    const a = await agent(app)
    const principal = crypto.randomUUID()
    await requestFullmakt(app, a, { agent_principal_id: principal })
    const res = await requestFullmakt(app, a, { agent_principal_id: principal, scopes: [MVA, AMELDING] })
    expect(res.status).toBe(409)
  })

  test('a reserved scope is SCOPE_RESERVED and an unknown one VALIDATION_FAILED naming it; nothing is brokered', async () => {
    const a = await agent(app)
    const principal = crypto.randomUUID()
    const reserved = await requestFullmakt(app, a, { agent_principal_id: principal, scopes: ['act:file'] })
    expect(reserved.status).toBe(403)
    expect((await reserved.json()).error_code).toBe('SCOPE_RESERVED')
    const unknown = await requestFullmakt(app, a, {
      agent_principal_id: principal,
      scopes: [MVA, 'skatteetaten:everything'],
    })
    expect(unknown.status).toBe(400)
    const body = await unknown.json()
    expect(body.error_code).toBe('VALIDATION_FAILED')
    expect(body.explanation.details[0].field).toBe('scopes[1]')
    expect(await app.deps.sql`select id from delegations where principal_id = ${principal}`).toHaveLength(0)
  })

  test('an organisation the register does not know is COMPANY_NOT_FOUND', async () => {
    const res = await requestFullmakt(app, await agent(app), { org_number: '999888941' })
    expect(res.status).toBe(404)
    expect((await res.json()).error_code).toBe('COMPANY_NOT_FOUND')
  })

  test('a malformed agent_principal_id is VALIDATION_FAILED naming the field', async () => {
    const res = await requestFullmakt(app, await agent(app), { agent_principal_id: 'not-a-uuid' })
    expect(res.status).toBe(400)
    expect((await res.json()).explanation.details[0].field).toContain('agent_principal_id')
  })

  test('a receipt that cannot be written leaves the delegation in place: 201 with warning receipt_generation_failed, and a retry completes it without a second delegation', async () => {
    const a = await agent(app)
    const principal = crypto.randomUUID()
    const trigger = `fail_receipts_${crypto.randomUUID().replaceAll('-', '').slice(0, 8)}`
    await app.deps.sql.unsafe(
      `create function ${trigger}() returns trigger language plpgsql as $$ begin if new.consumer_id = '${a.consumerId}' then raise exception 'disk full'; end if; return new; end $$`,
    )
    await app.deps.sql.unsafe(
      `create trigger ${trigger} before insert on delegation_receipts for each row execute function ${trigger}()`,
    )
    let first
    try {
      const res = await requestFullmakt(app, a, { agent_principal_id: principal })
      expect(res.status).toBe(201)
      first = (await res.json()).data
    } finally {
      await app.deps.sql.unsafe(`drop trigger ${trigger} on delegation_receipts`)
      await app.deps.sql.unsafe(`drop function ${trigger}()`)
    }
    expect(first.warnings).toEqual(['receipt_generation_failed'])
    expect(first.signed_receipt).toBeNull()
    expect(first.delegation_status).toBe('pending')
    const retry = (await (await requestFullmakt(app, a, { agent_principal_id: principal })).json()).data
    expect(retry.delegation_id).toBe(first.delegation_id)
    expect(retry.warnings).toEqual([])
    expect(retry.signed_receipt.event).toBe('delegation_granted')
    expect(
      await app.deps.sql`select id from mock_system_user_requests where external_ref = ${first.delegation_id}`,
    ).toHaveLength(1)
  })

  test('a replay with the same Idempotency-Key answers the first response', async () => {
    const a = await agent(app)
    const key = crypto.randomUUID()
    const body = { agent_principal_id: crypto.randomUUID() }
    const first = await requestFullmakt(app, a, body, { 'idempotency-key': key })
    const second = await requestFullmakt(app, a, body, { 'idempotency-key': key })
    expect(second.status).toBe(201)
    expect((await second.json()).data).toEqual((await first.json()).data)
  })
})

describe('the organisation’s decision', () => {
  test('after approval the snapshot is full, the principal bound to the system user, and an active receipt is signed', async () => {
    const a = await agent(app)
    const principal = crypto.randomUUID()
    const { data } = await (await requestFullmakt(app, a, { agent_principal_id: principal })).json()
    // the person approves a little later (receipts at the same instant are ordered by id)
    app.clock.advance(60_000)
    const decided = await decide(app, data.delegation_url)
    const snapshot = (await (await app.get(`/api/v1/auth/permissions/${ORG}`, { headers: a.auth })).json()).data
    expect(snapshot).toMatchObject({ status: 'full', active_scopes: [MVA], missing_scopes: [] })
    expect(snapshot.delegated_rights[0]).toMatchObject({
      agent_principal_id: principal,
      system_user_id: decided.system_user_id,
      scopes: [MVA],
    })
    expect(snapshot.breadcrumbs[0].map((b: { kind: string }) => b.kind)).toEqual([
      'consumer',
      'agent_principal',
      'system_user',
      'organisation',
    ])
    const state = (await (await app.get(`/api/v1/fullmakt/${ORG}`, { headers: a.auth })).json()).data
    expect(state.overall_status).toBe('full')
    expect(state.principals[0]).toMatchObject({
      agent_principal_id: principal,
      system_user_id: decided.system_user_id,
      delegation: 'active',
    })
    const receipts = (await (await app.get('/api/v1/fullmakt/receipts', { headers: a.auth })).json()).data.receipts
    expect(receipts.map((r: { receipt: { delegation_status: string } }) => r.receipt.delegation_status)).toEqual([
      'active',
      'pending',
    ])
    expect(verifiesWith(receipts[0].receipt, await receiptKey(app, a))).toBe(true)
  })

  test('a rejected request leaves the snapshot at none', async () => {
    const a = await agent(app)
    const { data } = await (await requestFullmakt(app, a)).json()
    await decide(app, data.delegation_url, 'Rejected')
    const snapshot = (await (await app.get(`/api/v1/auth/permissions/${ORG}`, { headers: a.auth })).json()).data
    expect(snapshot.status).toBe('none')
  })

  test('the README’s delegation road says what each plan reads after the VAT approval (issue 27, item 17)', async () => {
    const readme = readFileSync(new URL('../../README.md', import.meta.url), 'utf8')
    const line = readme.split('\n').find((l) => l.includes('$B/auth/permissions/984661185') && l.includes('# 2.'))
    if (!line) throw new Error('the README has no step 2 reading the permissions')
    // e.g. data.status: "full" (free, starter); "partial" (professional, enterprise)
    const said = new Map(
      [...line.matchAll(/"(full|partial|none)" \(([^)]*)\)/g)].flatMap((m) =>
        m[2]!.split(',').map((plan) => [plan.trim(), m[1]!] as const),
      ),
    )
    expect([...said.keys()].sort()).toEqual(['enterprise', 'free', 'professional', 'starter'])
    for (const [plan, status] of said) {
      const a = await agent(app, plan as 'free' | 'starter' | 'professional' | 'enterprise')
      const { data } = await (await requestFullmakt(app, a)).json()
      await decide(app, data.delegation_url)
      const snapshot = (await (await app.get(`/api/v1/auth/permissions/${ORG}`, { headers: a.auth })).json()).data
      expect({ plan, status: snapshot.status }).toEqual({ plan, status })
    }
  })

  test('a professional key with only VAT delegated is partial, missing the payroll scope', async () => {
    const a = await agent(app, 'professional')
    const { data } = await (await requestFullmakt(app, a)).json()
    await decide(app, data.delegation_url)
    const snapshot = (await (await app.get(`/api/v1/auth/permissions/${ORG}`, { headers: a.auth })).json()).data
    expect(snapshot).toMatchObject({ status: 'partial', active_scopes: [MVA], missing_scopes: [AMELDING] })
  })
})

describe('GET /api/v1/fullmakt/{org} and /auth/permissions/{org} without a delegation', () => {
  test('fullmakt is 200 none with empty principals and bokmål fix steps', async () => {
    const res = await app.get(`/api/v1/fullmakt/${ORG}`, { headers: (await agent(app)).auth })
    expect(res.status).toBe(200)
    const { data } = await res.json()
    expect(data).toMatchObject({ overall_status: 'none', principals: [] })
    expect(data.fix_steps.join(' ')).toContain('signaturrett')
  })

  test('permissions is 200 none with the baseline missing', async () => {
    const res = await app.get(`/api/v1/auth/permissions/${ORG}`, { headers: (await agent(app)).auth })
    expect(res.status).toBe(200)
    expect((await res.json()).data).toMatchObject({
      status: 'none',
      active_scopes: [],
      missing_scopes: [MVA],
      delegated_rights: [],
      breadcrumbs: [],
    })
  })

  test('a pending request shows in fullmakt with its delegation_url, and overall none', async () => {
    const a = await agent(app)
    const { data } = await (await requestFullmakt(app, a)).json()
    const state = (await (await app.get(`/api/v1/fullmakt/${ORG}`, { headers: a.auth })).json()).data
    expect(state.overall_status).toBe('none')
    expect(state.principals[0]).toMatchObject({ delegation: 'pending', delegation_url: data.delegation_url })
  })

  test('another consumer’s delegation is not shown', async () => {
    const a = await agent(app)
    const { data } = await (await requestFullmakt(app, a)).json()
    await decide(app, data.delegation_url)
    const other = (
      await (await app.get(`/api/v1/auth/permissions/${ORG}`, { headers: (await agent(app)).auth })).json()
    ).data
    expect(other.status).toBe('none')
  })
})

describe('POST /api/v1/fullmakt/revoke', () => {
  test('revokes the principal for good with a signed delegation_revoked receipt; the snapshot drops to none', async () => {
    const a = await agent(app)
    const principal = crypto.randomUUID()
    const { data } = await (await requestFullmakt(app, a, { agent_principal_id: principal })).json()
    await decide(app, data.delegation_url)
    const res = await app.send(
      'POST',
      '/api/v1/fullmakt/revoke',
      { agent_principal_id: principal, reason: 'agent retired' },
      a.auth,
    )
    expect(res.status).toBe(200)
    const revoked = (await res.json()).data
    expect(revoked).toMatchObject({
      principal_state: 'revoked',
      already_revoked: false,
      revoked_delegations: [data.delegation_id],
      warnings: [],
    })
    expect(revoked.signed_receipt).toMatchObject({ event: 'delegation_revoked', delegation_status: 'revoked' })
    expect(verifiesWith(revoked.signed_receipt, await receiptKey(app, a))).toBe(true)
    expect((await (await app.get(`/api/v1/auth/permissions/${ORG}`, { headers: a.auth })).json()).data.status).toBe(
      'none',
    )
    const upstream = await app.deps
      .sql`select system_user_deleted_at from mock_system_user_requests where id = ${requestIdOf(data.delegation_url)}`
    expect(upstream[0]!.system_user_deleted_at).not.toBeNull()
  })

  test('revoking again is a 200 no-op', async () => {
    const a = await agent(app)
    const principal = crypto.randomUUID()
    await requestFullmakt(app, a, { agent_principal_id: principal })
    await app.send('POST', '/api/v1/fullmakt/revoke', { agent_principal_id: principal, reason: 'x' }, a.auth)
    const again = await app.send(
      'POST',
      '/api/v1/fullmakt/revoke',
      { agent_principal_id: principal, reason: 'x' },
      a.auth,
    )
    expect(again.status).toBe(200)
    expect((await again.json()).data).toMatchObject({
      principal_state: 'revoked',
      already_revoked: true,
      revoked_delegations: [],
    })
  })

  test('a revoked principal is never given a delegation again', async () => {
    const a = await agent(app)
    const principal = crypto.randomUUID()
    await requestFullmakt(app, a, { agent_principal_id: principal })
    await app.send('POST', '/api/v1/fullmakt/revoke', { agent_principal_id: principal, reason: 'x' }, a.auth)
    const res = await requestFullmakt(app, a, { agent_principal_id: principal })
    expect(res.status).toBe(409)
    expect((await res.json()).error_code).toBe('AGENT_PRINCIPAL_REVOKED')
  })

  test('a principal whose request brokered nothing is revoked with warning delegation_not_found', async () => {
    const a = await agent(app)
    const principal = crypto.randomUUID()
    await app.deps
      .sql`insert into agent_principals (consumer_id, id, org_number, state, created_at, updated_at) values (${a.consumerId}, ${principal}, ${ORG}, 'pending', now(), now())`
    const res = await app.send(
      'POST',
      '/api/v1/fullmakt/revoke',
      { agent_principal_id: principal, reason: 'x' },
      a.auth,
    )
    expect((await res.json()).data).toMatchObject({
      principal_state: 'revoked',
      warnings: ['delegation_not_found'],
      signed_receipt: null,
    })
  })

  test('an unknown principal is 404', async () => {
    const res = await app.send(
      'POST',
      '/api/v1/fullmakt/revoke',
      { agent_principal_id: crypto.randomUUID(), reason: 'x' },
      (await agent(app)).auth,
    )
    expect(res.status).toBe(404)
  })

  test('another consumer’s principal is unknown to the caller', async () => {
    const owner = await agent(app)
    const principal = crypto.randomUUID()
    await requestFullmakt(app, owner, { agent_principal_id: principal })
    const res = await app.send(
      'POST',
      '/api/v1/fullmakt/revoke',
      { agent_principal_id: principal, reason: 'x' },
      (await agent(app)).auth,
    )
    expect(res.status).toBe(404)
    expect(
      (await (await app.get(`/api/v1/fullmakt/${ORG}`, { headers: owner.auth })).json()).data.principals,
    ).toHaveLength(1)
  })

  test('a revoke racing a request leaves the principal revoked, never active', async () => {
    for (let round = 0; round < 5; round++) {
      const a = await agent(app)
      const principal = crypto.randomUUID()
      await app.deps
        .sql`insert into agent_principals (consumer_id, id, org_number, state, created_at, updated_at) values (${a.consumerId}, ${principal}, ${ORG}, 'pending', now(), now())`
      await Promise.all([
        requestFullmakt(app, a, { agent_principal_id: principal }),
        app.send('POST', '/api/v1/fullmakt/revoke', { agent_principal_id: principal, reason: 'race' }, a.auth),
      ])
      const [row] = await app.deps.sql<
        { state: string }[]
      >`select state from agent_principals where consumer_id = ${a.consumerId} and id = ${principal}`
      expect(row!.state).toBe('revoked')
      const live = await app.deps.sql`
        select d.id from delegations d where d.principal_id = ${principal} and d.kind = 'grant'
          and not exists (select 1 from delegations r where r.kind = 'revocation' and r.supersedes = d.id)`
      expect(live).toHaveLength(0)
    }
  })

  test('a revocation whose principal row cannot be written warns principal_revoke_failed, and revoking again completes it', async () => {
    const a = await agent(app)
    const principal = crypto.randomUUID()
    await requestFullmakt(app, a, { agent_principal_id: principal })
    const trigger = `fail_principal_${crypto.randomUUID().replaceAll('-', '').slice(0, 8)}`
    await app.deps.sql.unsafe(
      `create function ${trigger}() returns trigger language plpgsql as $$ begin if new.consumer_id = '${a.consumerId}' and new.state = 'revoked' then raise exception 'lost'; end if; return new; end $$`,
    )
    await app.deps.sql.unsafe(
      `create trigger ${trigger} before update on agent_principals for each row execute function ${trigger}()`,
    )
    let first
    try {
      first = (
        await (
          await app.send('POST', '/api/v1/fullmakt/revoke', { agent_principal_id: principal, reason: 'x' }, a.auth)
        ).json()
      ).data
    } finally {
      await app.deps.sql.unsafe(`drop trigger ${trigger} on agent_principals`)
      await app.deps.sql.unsafe(`drop function ${trigger}()`)
    }
    expect(first.warnings).toContain('principal_revoke_failed')
    // the delegation is revoked regardless: nothing is usable
    expect((await (await app.get(`/api/v1/auth/permissions/${ORG}`, { headers: a.auth })).json()).data.status).toBe(
      'none',
    )
    const again = (
      await (
        await app.send('POST', '/api/v1/fullmakt/revoke', { agent_principal_id: principal, reason: 'x' }, a.auth)
      ).json()
    ).data
    expect(again.principal_state).toBe('revoked')
    const [row] = await app.deps.sql<
      { state: string }[]
    >`select state from agent_principals where consumer_id = ${a.consumerId} and id = ${principal}`
    expect(row!.state).toBe('revoked')
  })
})

describe('GET /api/v1/fullmakt/receipts', () => {
  test('lists only the caller’s receipts, newest first, in keyset pages', async () => {
    const a = await agent(app)
    for (let i = 0; i < 3; i++) {
      await requestFullmakt(app, a)
      app.clock.advance(1000)
    }
    await requestFullmakt(app, await agent(app))
    const page1 = (await (await app.get('/api/v1/fullmakt/receipts?limit=2', { headers: a.auth })).json()).data
    expect(page1.receipts).toHaveLength(2)
    expect(page1.pagination.has_more).toBe(true)
    const page2 = (
      await (
        await app.get(
          `/api/v1/fullmakt/receipts?limit=2&before=${encodeURIComponent(page1.pagination.next_before)}&before_id=${page1.pagination.next_before_id}`,
          { headers: a.auth },
        )
      ).json()
    ).data
    expect(page2.receipts).toHaveLength(1)
    expect(page2.pagination.has_more).toBe(false)
    const all = [...page1.receipts, ...page2.receipts]
    expect(new Set(all.map((r: { id: string }) => r.id)).size).toBe(3)
    expect(all.every((r: { receipt: { consumer_id: string } }) => r.receipt.consumer_id === a.consumerId)).toBe(true)
    const times = all.map((r: { issued_at: string }) => r.issued_at)
    expect([...times].sort().reverse()).toEqual(times)
  })

  test('before without before_id is VALIDATION_FAILED', async () => {
    const res = await app.get(`/api/v1/fullmakt/receipts?before=${encodeURIComponent('2026-03-14T09:30:00Z')}`, {
      headers: (await agent(app)).auth,
    })
    expect(res.status).toBe(400)
  })
})

describe('POST /api/v1/auth/system-user/delegate', () => {
  test('brokers a delegation for the caller’s default principal and returns its delegation_url; a retry finds the same one', async () => {
    const a = await agent(app)
    const first = await app.send(
      'POST',
      '/api/v1/auth/system-user/delegate',
      { org_number: ORG, scopes: [MVA] },
      a.auth,
    )
    expect(first.status).toBe(201)
    const one = (await first.json()).data
    expect(one.delegation_url).toStartWith(`${app.url}/`)
    const two = (
      await (
        await app.send('POST', '/api/v1/auth/system-user/delegate', { org_number: ORG, scopes: [MVA] }, a.auth)
      ).json()
    ).data
    expect(two.delegation_id).toBe(one.delegation_id)
    expect(two.agent_principal_id).toBe(one.agent_principal_id)
  })

  const delegate = (a: Awaited<ReturnType<typeof agent>>, scopes: string[]) =>
    app.send('POST', '/api/v1/auth/system-user/delegate', { org_number: ORG, scopes }, a.auth)

  test('after its principal is revoked, a delegate call makes a new principal instead of answering AGENT_PRINCIPAL_REVOKED for ever; the revoked one stays revoked', async () => {
    const a = await agent(app)
    const first = (await (await delegate(a, [MVA])).json()).data
    expect(
      (
        await app.send(
          'POST',
          '/api/v1/fullmakt/revoke',
          { agent_principal_id: first.agent_principal_id, reason: 'done' },
          a.auth,
        )
      ).status,
    ).toBe(200)
    const again = await delegate(a, [MVA])
    expect(again.status).toBe(201)
    const second = (await again.json()).data
    expect(second.agent_principal_id).not.toBe(first.agent_principal_id)
    expect(second.delegation_status).toBe('pending')
    const [old] = await app.deps.sql<
      { state: string }[]
    >`select state from agent_principals where consumer_id = ${a.consumerId} and id = ${first.agent_principal_id}`
    expect(old!.state).toBe('revoked')
    expect((await (await delegate(a, [MVA])).json()).data.agent_principal_id).toBe(second.agent_principal_id)
  })

  test('a delegate call for more scopes asks for all of them under a new principal, never AGENT_PRINCIPAL_CONFLICT; a narrower one is the delegation that covers it', async () => {
    const a = await agent(app, 'professional')
    const first = (await (await delegate(a, [MVA])).json()).data
    const wider = await delegate(a, [AMELDING])
    expect(wider.status).toBe(201)
    const both = (await wider.json()).data
    expect(both.agent_principal_id).not.toBe(first.agent_principal_id)
    expect([...both.scopes].sort()).toEqual([AMELDING, MVA].sort())
    const narrower = (await (await delegate(a, [MVA])).json()).data
    expect(narrower.agent_principal_id).toBe(both.agent_principal_id)
    expect(narrower.delegation_id).toBe(both.delegation_id)
  })
})
