/**
 * The mock digital agency's approval page over plain HTTP: what it shows, that only a person the
 * register lists may decide, that the form token and the same-site check guard the form, that
 * racing decisions make exactly one, and that an unknown or malformed id is a 404 page. The
 * company is FJORDREVISJON AS in the fixtures: DAGL Ragnhild Fjord (who also signs alone, R0006),
 * LEDE Sverre Revheim, and board member Astrid Fjord, who may not approve.
 */
import { afterAll, beforeAll, expect, test } from 'bun:test'
import type { MockDigitalAgency } from '../../../src/upstream/digital-agency/mock.ts'
import type { DigitalAgency } from '../../../src/upstream/digital-agency/port.ts'
import { PINNED_NOW, startApp, type TestApp } from '../../helpers.ts'
import { freshIp, postForm } from '../../helpers.ts'

const ORG = '997612302'
const PACKAGES = ['urn:altinn:accesspackage:merverdiavgift', 'urn:altinn:accesspackage:a-ordning']

let app: TestApp
let agency: MockDigitalAgency
beforeAll(async () => {
  app = await startApp()
  agency = app.deps.digitalAgency as MockDigitalAgency
})
afterAll(() => app.stop())

const newRequest = () =>
  agency.requestSystemUser({
    partyOrgNo: ORG,
    externalRef: `consumer:${crypto.randomUUID()}`,
    accessPackages: PACKAGES,
  })
const pathOf = (confirmUrl: string) => new URL(confirmUrl).pathname

async function openPage(confirmUrl: string): Promise<{ status: number; html: string; token: string | null }> {
  const res = await app.get(pathOf(confirmUrl))
  const html = await res.text()
  return { status: res.status, html, token: /name="csrf_token" value="([^"]+)"/.exec(html)?.[1] ?? null }
}

const sameOrigin = () => ({ origin: app.url, 'sec-fetch-site': 'same-origin', ...freshIp() })

function decide(
  confirmUrl: string,
  fields: Record<string, string>,
  headers: Record<string, string> = sameOrigin(),
): Promise<Response> {
  return postForm(app, `${pathOf(confirmUrl)}/decision`, fields, headers)
}

test('the page names the system, the organisation, the packages and who may approve', async () => {
  const r = await newRequest()
  const { status, html, token } = await openPage(r.confirmUrl)
  expect(status).toBe(200)
  expect(html).toContain('<strong>Plikt</strong>')
  expect(html).toContain('<strong id="org-name">FJORDREVISJON AS</strong>')
  expect(html).toContain('<span id="org-number">997612302</span>')
  expect(html).toContain(
    '<span>Merverdiavgift</span> <span lang="en">/ VAT</span> <code>urn:altinn:accesspackage:merverdiavgift</code>',
  )
  expect(html).toContain('<code>urn:altinn:accesspackage:a-ordning</code>')
  expect(html).toContain('value="Ragnhild Fjord"')
  expect(html).toContain('value="Sverre Revheim"')
  expect(html).toContain('«Daglig leder alene.»')
  expect(html).not.toContain('Astrid Fjord')
  expect(html).toContain('ID-porten')
  expect(token).not.toBeNull()
})

test('the page runs no script', async () => {
  const r = await newRequest()
  const res = await app.get(pathOf(r.confirmUrl))
  expect(res.headers.get('content-security-policy')).toContain("default-src 'none'")
  expect(await res.text()).not.toContain('<script')
})

test('an unknown id is a 404 page', async () => {
  const res = await app.get(`/mock/digital-agency/requests/${crypto.randomUUID()}`)
  expect(res.status).toBe(404)
  expect(res.headers.get('content-type')).toContain('text/html')
  expect(await res.text()).toContain('<code>NOT_FOUND</code>')
})

test('a malformed id is a 404 page', async () => {
  const res = await app.get('/mock/digital-agency/requests/not-a-request')
  expect(res.status).toBe(404)
  expect(await res.text()).toContain('<code>NOT_FOUND</code>')
})

test('a listed person approves: the request is Accepted, the system user exists, the page shows who decided and offers no form', async () => {
  const r = await newRequest()
  const { token } = await openPage(r.confirmUrl)
  const res = await decide(r.confirmUrl, { csrf_token: token!, approver: 'Ragnhild Fjord', decision: 'approve' })
  expect(res.status).toBe(303)
  expect(res.headers.get('location')).toBe(pathOf(r.confirmUrl))
  expect((await agency.requestStatus(r.id))!.status).toBe('Accepted')
  expect(await agency.systemUser(ORG, r.externalRef)).not.toBeNull()
  const after = await openPage(r.confirmUrl)
  expect(after.html).toContain('Godkjent')
  expect(after.html).toContain('<strong>Ragnhild Fjord</strong> (<code>role:DAGL signature:R0006</code>)')
  expect(after.html).not.toContain('<form method="post" action="/mock')
  expect(after.token).toBeNull()
})

test('a listed person rejects: the request is Rejected and no system user exists', async () => {
  const r = await newRequest()
  const { token } = await openPage(r.confirmUrl)
  const res = await decide(r.confirmUrl, { csrf_token: token!, approver: 'Sverre Revheim', decision: 'reject' })
  expect(res.status).toBe(303)
  expect((await agency.requestStatus(r.id))!.status).toBe('Rejected')
  expect(await agency.systemUser(ORG, r.externalRef)).toBeNull()
})

test('a person the register does not list as an approver is refused with an explanation, and nothing changes', async () => {
  const r = await newRequest()
  const { token } = await openPage(r.confirmUrl)
  const res = await decide(r.confirmUrl, { csrf_token: token!, approver: 'Astrid Fjord', decision: 'approve' })
  expect(res.status).toBe(403)
  expect(await res.text()).toContain(
    '<strong>Astrid Fjord</strong> er ikke blant dem registeret viser som kan godkjenne',
  )
  expect((await agency.requestStatus(r.id))!.status).toBe('New')
})

test('a decision without choosing who you are is refused, and nothing changes', async () => {
  const r = await newRequest()
  const { token } = await openPage(r.confirmUrl)
  const res = await decide(r.confirmUrl, { csrf_token: token!, decision: 'approve' })
  expect(res.status).toBe(400)
  expect(await res.text()).toContain('Velg hvem du er')
  expect((await agency.requestStatus(r.id))!.status).toBe('New')
})

test('a forged form token is refused, and nothing changes', async () => {
  const r = await newRequest()
  const { token } = await openPage(r.confirmUrl)
  const [expiry, mac] = token!.split('.')
  const forged = `${expiry}.${mac!.slice(0, -1)}${mac!.endsWith('A') ? 'B' : 'A'}`
  const res = await decide(r.confirmUrl, { csrf_token: forged, approver: 'Ragnhild Fjord', decision: 'approve' })
  expect(res.status).toBe(400)
  expect(await res.text()).toContain('<code>csrf_token</code>')
  expect((await agency.requestStatus(r.id))!.status).toBe('New')
})

test('a token with a later expiry than it was issued with is refused', async () => {
  const r = await newRequest()
  const { token } = await openPage(r.confirmUrl)
  const [expiry, mac] = token!.split('.')
  const res = await decide(r.confirmUrl, {
    csrf_token: `${Number(expiry) + 3600}.${mac}`,
    approver: 'Ragnhild Fjord',
    decision: 'approve',
  })
  expect(res.status).toBe(400)
  expect((await agency.requestStatus(r.id))!.status).toBe('New')
})

test('the token of another request is refused', async () => {
  const [r, other] = [await newRequest(), await newRequest()]
  const { token } = await openPage(other.confirmUrl)
  const res = await decide(r.confirmUrl, { csrf_token: token!, approver: 'Ragnhild Fjord', decision: 'approve' })
  expect(res.status).toBe(400)
  expect((await agency.requestStatus(r.id))!.status).toBe('New')
})

test('a form without a token is refused', async () => {
  const r = await newRequest()
  const res = await decide(r.confirmUrl, { approver: 'Ragnhild Fjord', decision: 'approve' })
  expect(res.status).toBe(400)
  expect(await res.text()).toContain('<code>csrf_token</code>')
  expect((await agency.requestStatus(r.id))!.status).toBe('New')
})

test('a form token is good for an hour after the page was shown, and not after', async () => {
  const [late, inTime] = [await newRequest(), await newRequest()]
  const [lateToken, inTimeToken] = [
    (await openPage(late.confirmUrl)).token!,
    (await openPage(inTime.confirmUrl)).token!,
  ]
  app.clock.advance(60 * 60 * 1000 - 1000)
  try {
    expect(
      (await decide(inTime.confirmUrl, { csrf_token: inTimeToken, approver: 'Ragnhild Fjord', decision: 'approve' }))
        .status,
    ).toBe(303)
    app.clock.advance(1000)
    const res = await decide(late.confirmUrl, {
      csrf_token: lateToken,
      approver: 'Ragnhild Fjord',
      decision: 'approve',
    })
    expect(res.status).toBe(400)
    expect(await res.text()).toContain('<code>csrf_token</code>')
    expect((await agency.requestStatus(late.id))!.status).toBe('New')
  } finally {
    app.clock.set(PINNED_NOW)
  }
})

test('a valid token posted from another site is refused, and nothing changes', async () => {
  const r = await newRequest()
  const { token } = await openPage(r.confirmUrl)
  const res = await decide(
    r.confirmUrl,
    { csrf_token: token!, approver: 'Ragnhild Fjord', decision: 'approve' },
    { origin: 'https://evil.example', 'sec-fetch-site': 'cross-site', ...freshIp() },
  )
  expect(res.status).toBe(400)
  expect(await res.text()).toContain('<code>origin</code>')
  expect((await agency.requestStatus(r.id))!.status).toBe('New')
})

test('ten concurrent approvals and rejections make exactly one decision; the others are told it was answered', async () => {
  const r = await newRequest()
  const { token } = await openPage(r.confirmUrl)
  const people = ['Ragnhild Fjord', 'Sverre Revheim']
  const answers = await Promise.all(
    Array.from({ length: 10 }, (_, i) =>
      decide(r.confirmUrl, {
        csrf_token: token!,
        approver: people[i % 2]!,
        decision: i % 3 === 0 ? 'reject' : 'approve',
      }),
    ),
  )
  const statuses = answers.map((a) => a.status).sort()
  expect(statuses).toEqual([303, 409, 409, 409, 409, 409, 409, 409, 409, 409])
  const refused = answers.find((a) => a.status === 409)!
  expect(await refused.text()).toContain('Ingenting ble endret')
  const final = (await agency.find(r.id))!
  expect(['Accepted', 'Rejected']).toContain(final.status)
  expect((await agency.systemUser(ORG, r.externalRef)) !== null).toBe(final.status === 'Accepted')
})

test('a second decision on an answered request changes nothing', async () => {
  const r = await newRequest()
  const { token } = await openPage(r.confirmUrl)
  expect(
    (await decide(r.confirmUrl, { csrf_token: token!, approver: 'Ragnhild Fjord', decision: 'reject' })).status,
  ).toBe(303)
  const again = await decide(r.confirmUrl, { csrf_token: token!, approver: 'Sverre Revheim', decision: 'approve' })
  expect(again.status).toBe(409)
  const final = (await agency.find(r.id))!
  expect(final.status).toBe('Rejected')
  expect(final.decision!.by).toBe('Ragnhild Fjord')
})

test('a timed-out request shows its state and offers no form', async () => {
  const r = await newRequest()
  app.clock.advance(10 * 24 * 60 * 60 * 1000)
  try {
    const { status, html, token } = await openPage(r.confirmUrl)
    expect(status).toBe(200)
    expect(html).toContain('Utløpt')
    expect(token).toBeNull()
  } finally {
    app.clock.set(PINNED_NOW)
  }
})

test('with a digital agency that is not the mock, there is no approval page', async () => {
  const r = await newRequest()
  const live: DigitalAgency = {
    mock: false,
    requestSystemUser: () => Promise.reject(new Error('not called')),
    requestStatus: () => Promise.reject(new Error('not called')),
    systemUser: () => Promise.reject(new Error('not called')),
    revoke: () => Promise.reject(new Error('not called')),
  }
  const other = await startApp({ overrides: { digitalAgency: live } })
  try {
    expect((await other.get(pathOf(r.confirmUrl))).status).toBe(404)
  } finally {
    await other.stop()
  }
})
