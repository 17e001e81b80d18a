/**
 * The live submitter against the Altinn fixture over real HTTP, as a company's approved system
 * user: the whole flow and its receipt, one instance per idempotency key (also across a retry
 * after a failure), a move whose request failed confirmed by reading before it is repeated, and
 * each failure's code. Budgets are real time here; no assertion is about how long anything took.
 */
import { afterAll, afterEach, beforeAll, describe, expect, test } from 'bun:test'
import { startFixtureServers, type FixtureServers } from '../../../fixtures/servers/index.ts'
import type { AppError } from '../../../src/errors/app-error.ts'
import { systemClock } from '../../../src/lib/clock.ts'
import { filingTag, LiveFilingSubmitter, MVA_SUBMIT_SCOPES } from '../../../src/upstream/filing-portal/live.ts'
import type { VatFiling } from '../../../src/upstream/filing-portal/port.ts'
import { UpstreamClient, type UpstreamPolicy } from '../../../src/upstream/http.ts'
import {
  addFault,
  altinnState,
  approvedCompany,
  clearFaults,
  clearRequests,
  FAST,
  requestLog,
  tokenService,
} from '../../helpers.ts'

const ORG = '984661185'
const UNAPPROVED = '923609016'
let fx: FixtureServers
let token: string
beforeAll(async () => {
  fx = await startFixtureServers()
  const tokens = tokenService(fx, systemClock)
  const systemUser = await approvedCompany(fx, tokens, systemClock, ORG)
  token = (await tokens.token({ scope: MVA_SUBMIT_SCOPES, systemUser })).access_token
})
afterAll(() => fx.stop())
afterEach(async () => {
  await clearFaults(fx.filingPortalUrl)
  await clearRequests(fx.filingPortalUrl)
})

const submitter = (policy: UpstreamPolicy = FAST) =>
  new LiveFilingSubmitter(
    { appUrl: fx.governmentClient.filingPortalVatAppUrl, platformUrl: fx.filingPortalUrl },
    new UpstreamClient('Altinn', policy, systemClock),
    systemClock,
  )
const filing = (over: Partial<VatFiling> = {}): VatFiling => ({
  org_number: ORG,
  period: '2026-T1',
  payload: { total_revenue_nok: 125_000, output_vat_nok: 31_250 },
  action_id: 'act_0123456789abcdef0123456789abcdef',
  idempotency_key: crypto.randomUUID(),
  ...over,
})
const failure = (p: Promise<unknown>) =>
  p.then(
    () => null,
    (e: unknown) => e as AppError,
  )
const tagged = async (f: VatFiling) =>
  (await altinnState(fx)).instances.filter(
    (i) => i.dataValues?.pliktFiling === filingTag(f.org_number, f.idempotency_key),
  )
const calls = async () =>
  (await requestLog(fx.filingPortalUrl)).map(
    (r) =>
      `${r.method} ${r.path.replace(/\/instances\/\d+\/[0-9a-f-]{36}/, '/instances/{id}').replace(/\/data\/[0-9a-f-]{36}/, '/data/{data}')}`,
  )

describe('a filing', () => {
  test('goes through: one tagged instance with the envelope and the return, the process ended, the receipt naming it', async () => {
    const f = filing()
    const receipt = await submitter().submitVatReturn(f, token, 8000)
    const [instance, ...more] = await tagged(f)
    expect(more).toEqual([])
    expect(receipt.instance_id).toBe(instance!.id)
    expect(receipt.receipt_id).toBe(instance!.id.split('-')[4]!)
    expect(instance!.process.ended).not.toBeNull()
    expect(instance!.data.map((d) => d.dataType)).toEqual([
      'no.skatteetaten.fastsetting.avgift.mva.mvameldinginnsending.v1.0',
      'mvamelding',
      'valideringsresultat',
      'betalingsinformasjon',
      'kvittering',
    ])
    expect(receipt.government_response_raw).toMatchObject({
      instance: { id: instance!.id, process: { currentTask: null } },
      feedback: { isFeedbackProvided: true },
    })
  })

  test('takes the documented steps in order', async () => {
    await submitter().submitVatReturn(filing(), token, 8000)
    expect(await calls()).toEqual([
      'GET /authentication/api/v1/exchange/maskinporten',
      'GET /storage/api/v1/instances',
      'POST /skd/mva-melding-innsending-v1/instances',
      'PUT /skd/mva-melding-innsending-v1/instances/{id}/datavalues',
      'PUT /skd/mva-melding-innsending-v1/instances/{id}/data/{data}',
      'POST /skd/mva-melding-innsending-v1/instances/{id}/data',
      'GET /skd/mva-melding-innsending-v1/instances/{id}',
      'PUT /skd/mva-melding-innsending-v1/instances/{id}/process/next',
      'PUT /skd/mva-melding-innsending-v1/instances/{id}/process/next',
      'GET /skd/mva-melding-innsending-v1/instances/{id}/feedback/status',
      'GET /skd/mva-melding-innsending-v1/instances/{id}',
    ])
  })

  test('filed again with the same idempotency key: the first receipt, and no second instance', async () => {
    const f = filing()
    const first = await submitter().submitVatReturn(f, token, 8000)
    await clearRequests(fx.filingPortalUrl)
    const again = await submitter().submitVatReturn(f, token, 8000)
    expect(again.receipt_id).toBe(first.receipt_id)
    expect(again.instance_id).toBe(first.instance_id)
    expect(await tagged(f)).toHaveLength(1)
    expect((await calls()).filter((c) => c.startsWith('POST') || c.endsWith('/process/next'))).toEqual([])
  })

  test('retried after it failed mid-way, it resumes the first instance: one instance in the end', async () => {
    const f = filing()
    await addFault(fx.filingPortalUrl, { match: '/process/next', mode: 'status', status: 500, times: 3 })
    expect((await failure(submitter().submitVatReturn(f, token, 8000)))?.code).toBe('RETRY_BUDGET_EXHAUSTED')
    const receipt = await submitter().submitVatReturn(f, token, 8000)
    const all = await tagged(f)
    expect(all).toHaveLength(1)
    expect(receipt.instance_id).toBe(all[0]!.id)
  })

  test('a move whose request failed is confirmed by reading the instance before it is tried again', async () => {
    await addFault(fx.filingPortalUrl, { match: '/process/next', mode: 'reset', times: 1 })
    await submitter().submitVatReturn(filing(), token, 8000)
    const log = await calls()
    const failedAt = log.indexOf('PUT /skd/mva-melding-innsending-v1/instances/{id}/process/next')
    expect(log[failedAt + 1]).toBe('GET /skd/mva-melding-innsending-v1/instances/{id}')
    expect(log.filter((c) => c.endsWith('/process/next'))).toHaveLength(3)
  })

  test('a move that went through but whose answer was lost is not made again', async () => {
    let lost = false
    // The portal moves the process; the answer never reaches us.
    const losing = (async (url: string, init: RequestInit) => {
      const res = await fetch(url, init)
      if (!lost && url.endsWith('/process/next')) {
        lost = true
        throw new TypeError('ECONNRESET: the socket closed before the answer was read')
      }
      return res
    }) as typeof fetch
    const s = new LiveFilingSubmitter(
      { appUrl: fx.governmentClient.filingPortalVatAppUrl, platformUrl: fx.filingPortalUrl },
      new UpstreamClient('Altinn', FAST, systemClock, losing),
      systemClock,
    )
    const f = filing()
    const receipt = await s.submitVatReturn(f, token, 8000)
    expect(receipt.instance_id).toBe((await tagged(f))[0]!.id)
    expect((await calls()).filter((c) => c.endsWith('/process/next'))).toHaveLength(2)
  })
})

describe('failures', () => {
  test('a return the app finds invalid (409 "Ugyldig mva-melding") is GOVERNMENT_VALIDATION_REJECTED with the validation result', async () => {
    const e = await failure(
      submitter().submitVatReturn(
        filing({ payload: { total_revenue_nok: 125_000, output_vat_nok: 1_000 } }),
        token,
        8000,
      ),
    )
    expect(e?.code).toBe('GOVERNMENT_VALIDATION_REJECTED')
    const upstream = (
      e!.options.extra as {
        upstream: { http_status: number; valideringsresultat: { avvikVedMeldingslevering: string } }
      }
    ).upstream
    expect(upstream.http_status).toBe(409)
    expect(upstream.valideringsresultat.avvikVedMeldingslevering).toBe('ugyldig skattemelding')
  })

  test('a company whose system user the token does not carry (403) is PORTAL_DELEGATION_MISSING naming it', async () => {
    const e = await failure(submitter().submitVatReturn(filing({ org_number: UNAPPROVED }), token, 8000))
    expect(e?.code).toBe('PORTAL_DELEGATION_MISSING')
    expect(e?.options.context).toEqual({ org_number: UNAPPROVED })
  })

  test('a token the portal does not take (401 at the exchange) is PORTAL_DELEGATION_MISSING', async () => {
    expect((await failure(submitter().submitVatReturn(filing(), 'not.a.token', 8000)))?.code).toBe(
      'PORTAL_DELEGATION_MISSING',
    )
  })

  test('a 2xx that cannot be read is PORTAL_ACK_UNPARSEABLE and is never retried', async () => {
    await addFault(fx.filingPortalUrl, { match: '/process/next', mode: 'malformed', times: 1 })
    expect((await failure(submitter().submitVatReturn(filing(), token, 8000)))?.code).toBe('PORTAL_ACK_UNPARSEABLE')
    expect((await calls()).filter((c) => c.endsWith('/process/next'))).toHaveLength(1)
  })

  test('a portal slower than the budget is EXECUTION_DEADLINE_EXCEEDED', async () => {
    await addFault(fx.filingPortalUrl, { match: '/process/next', mode: 'slow', delay_ms: 5000 })
    expect((await failure(submitter().submitVatReturn(filing(), token, 600)))?.code).toBe('EXECUTION_DEADLINE_EXCEEDED')
  })

  test('a portal that never answers within the budget is EXECUTION_DEADLINE_EXCEEDED', async () => {
    await addFault(fx.filingPortalUrl, { match: '/storage/api/v1/instances', mode: 'timeout' })
    expect((await failure(submitter().submitVatReturn(filing(), token, 600)))?.code).toBe('EXECUTION_DEADLINE_EXCEEDED')
  })

  test('a step that keeps failing is RETRY_BUDGET_EXHAUSTED after three attempts', async () => {
    await addFault(fx.filingPortalUrl, { match: '/feedback/status', mode: 'status', status: 500 })
    const e = await failure(submitter().submitVatReturn(filing(), token, 8000))
    expect(e?.code).toBe('RETRY_BUDGET_EXHAUSTED')
    expect((await calls()).filter((c) => c.endsWith('/feedback/status'))).toHaveLength(3)
  })

  test('a portal that answers 503 at every attempt before anything was sent is GOVERNMENT_UNAVAILABLE', async () => {
    await addFault(fx.filingPortalUrl, { match: '/exchange/', mode: 'status', status: 503 })
    const e = await failure(submitter().submitVatReturn(filing(), token, 8000))
    expect([e?.code, e?.status]).toEqual(['GOVERNMENT_UNAVAILABLE', 503])
    expect((await calls()).filter((c) => c.includes('/exchange/'))).toHaveLength(3)
  })

  test('a move sent without an answer that no read can confirm is EXECUTION_TIMEOUT: the outcome is unknown, with the step and the instance', async () => {
    let sent = false
    // The move reaches the portal and its answer is lost; then the portal cannot be read at all.
    const dark = (async (url: string, init: RequestInit) => {
      if (sent && (init.method ?? 'GET') === 'GET') throw new TypeError('ECONNRESET: the portal went dark')
      const res = await fetch(url, init)
      if (!sent && url.endsWith('/process/next')) {
        sent = true
        throw new TypeError('ECONNRESET: the socket closed before the answer was read')
      }
      return res
    }) as typeof fetch
    const s = new LiveFilingSubmitter(
      { appUrl: fx.governmentClient.filingPortalVatAppUrl, platformUrl: fx.filingPortalUrl },
      new UpstreamClient('Altinn', FAST, systemClock, dark),
      systemClock,
    )
    const f = filing()
    const e = await failure(s.submitVatReturn(f, token, 8000))
    expect(e?.code).toBe('EXECUTION_TIMEOUT')
    const outcome = (e!.options.extra as { outcome: Record<string, unknown> }).outcome
    expect(outcome).toEqual({
      status: 'unknown',
      step: 'process/next',
      instance_id: (await tagged(f))[0]!.id,
      ended_by: 'RETRY_BUDGET_EXHAUSTED',
    })
  })

  test('after repeated failure the breaker opens: EXECUTION_CIRCUIT_OPEN at once, and the portal sees no call', async () => {
    const s = submitter({ ...FAST, attempts: 1, breakerThreshold: 1, breakerOpenMs: 30_000 })
    await addFault(fx.filingPortalUrl, { match: '/exchange/', mode: 'status', status: 503 })
    await failure(s.submitVatReturn(filing(), token, 8000))
    await clearRequests(fx.filingPortalUrl)
    const e = await failure(s.submitVatReturn(filing(), token, 8000))
    expect(e?.code).toBe('EXECUTION_CIRCUIT_OPEN')
    expect(e?.options.headers?.['retry-after']).toBeDefined()
    expect(await requestLog(fx.filingPortalUrl)).toEqual([])
  })
})

describe('a process that waits for a person', () => {
  const SIGNING = { elementId: 'Task_4', name: 'Signering', altinnTaskType: 'signing' }
  const setProcess = (personTask: typeof SIGNING | null) =>
    fetch(`${fx.filingPortalUrl}/__control/app-process`, { method: 'PUT', body: JSON.stringify({ personTask }) })
  afterEach(() => setProcess(null))

  test('is FOLLOWUP_REQUIRED naming the step and the instance, and nothing moves it for the person', async () => {
    await setProcess(SIGNING)
    const f = filing()
    const e = await failure(submitter().submitVatReturn(f, token, 8000))
    expect([e?.code, e?.status]).toEqual(['FOLLOWUP_REQUIRED', 422])
    const [instance] = await tagged(f)
    expect((e!.options.extra as { outcome: unknown }).outcome).toEqual({
      status: 'awaiting_person',
      instance_id: instance!.id,
      followup_action: {
        who: 'portal_user',
        where: 'Altinn → Innboks',
        task: 'signing',
        task_name: 'Signering',
        what: 'Fullfør steget «Signering» (signing) i mva-meldingen i Altinn-innboksen til virksomheten.',
        what_en: 'Complete the step "Signering" (signing) of the VAT return in the organisation\'s Altinn inbox.',
      },
    })
    expect(instance!.process.currentTask?.altinnTaskType).toBe('signing')
  })

  test('once the person has done the step, the same filing resumes the same instance to its receipt', async () => {
    await setProcess(SIGNING)
    const f = filing()
    await failure(submitter().submitVatReturn(f, token, 8000))
    const [instance] = await tagged(f)
    const guid = instance!.id.split('/')[1]
    expect(
      (await fetch(`${fx.filingPortalUrl}/__control/instances/${guid}/process/next`, { method: 'POST' })).status,
    ).toBe(200)
    const receipt = await submitter().submitVatReturn(f, token, 8000)
    expect(receipt.instance_id).toBe(instance!.id)
    expect(await tagged(f)).toHaveLength(1)
  })
})
