/**
 * Approval is seen within seconds: the agency is given the service's own return address
 * (redirectUrl); the person who decided is sent there, and the visit asks the agency at once and
 * tells them, in bokmål and English, that they may go back to their agent. A person who never
 * comes back is caught by the refresh job, which asks young requests every few seconds: a real
 * job runner, on a clock that moves with the wall, records the approval within 10 seconds.
 */
import { afterAll, beforeAll, expect, test } from 'bun:test'
import { QUEUE_JOBS, startJobs } from '../../../jobs/runner.ts'
import { PINNED_NOW, startApp, type TestApp } from '../../helpers.ts'
import { freshIp, postForm } from '../../helpers.ts'
import { agent, decide, requestFullmakt, type Agent } from '../../helpers.ts'

/** FJORDREVISJON AS in the fixtures: DAGL Ragnhild Fjord may approve. */
const ORG = '997612302'

let app: TestApp
beforeAll(async () => {
  app = await startApp()
})
afterAll(() => app.stop())

async function fullmakt(t: TestApp, a: Agent, principalId: string) {
  const { data } = await (await t.get(`/api/v1/fullmakt/${ORG}`, { headers: a.auth })).json()
  return data.principals.find((p: { agent_principal_id: string }) => p.agent_principal_id === principalId)
}

test('the agency is given the return page as the request’s redirectUrl', async () => {
  const a = await agent(app)
  const { data } = await (await requestFullmakt(app, a, { org_number: ORG })).json()
  const [row] = await app.deps.sql<
    { redirect_url: string }[]
  >`select redirect_url from mock_system_user_requests where external_ref = ${data.delegation_id}`
  expect(row!.redirect_url).toBe(`${app.url}/fullmakt/returned`)
})

test('approving on the page sends the person back; the visit records the approval at once and tells them to return to their agent', async () => {
  const a = await agent(app)
  const principalId = crypto.randomUUID()
  const { data } = await (await requestFullmakt(app, a, { agent_principal_id: principalId, org_number: ORG })).json()
  const pagePath = new URL(data.delegation_url).pathname
  const html = await (await app.get(pagePath)).text()
  const token = /name="csrf_token" value="([^"]+)"/.exec(html)![1]!
  const decided = await postForm(
    app,
    `${pagePath}/decision`,
    { csrf_token: token, approver: 'Ragnhild Fjord', decision: 'approve' },
    { origin: app.url, 'sec-fetch-site': 'same-origin', ...freshIp() },
  )
  expect(decided.status).toBe(303)
  const back = decided.headers.get('location')!
  expect(back).toBe(`${app.url}/fullmakt/returned`)
  expect((await fullmakt(app, a, principalId)).delegation).toBe('pending')

  const visit = await fetch(back, { headers: freshIp() })
  expect(visit.status).toBe(200)
  const page = await visit.text()
  expect(page).toContain(
    '<span>Takk, svaret ditt er registrert</span> <span lang="en">/ Thank you, your answer is recorded</span>',
  )
  expect(page).toContain('gå tilbake til agenten din')
  expect(page).toContain('return to your agent')
  const p = await fullmakt(app, a, principalId)
  expect(p.delegation).toBe('active')
  expect(p.system_user_id).toMatch(/^[0-9a-f-]{36}$/)
})

test('a person who does not come back: a running job runner records the approval within 10 seconds, with no job run by hand', async () => {
  // The runner's timers are the wall's; so is this app's clock, from the pinned instant on.
  const start = Date.now()
  let offset = new Date(PINNED_NOW).getTime() + 86_400_000 - start
  const clock = {
    now: () => new Date(Date.now() + offset),
    set: (iso: string) => void (offset = new Date(iso).getTime() - Date.now()),
    advance: (ms: number) => void (offset += ms),
  }
  const live = await startApp({ clock })
  const jobs = startJobs(live.deps, {
    jobs: {},
    queueJobs: { 'delegation-refresh': QUEUE_JOBS['delegation-refresh']! },
  })
  try {
    const a = await agent(live)
    const principalId = crypto.randomUUID()
    const { data } = await (await requestFullmakt(live, a, { agent_principal_id: principalId, org_number: ORG })).json()
    await decide(live, data.delegation_url)
    const decidedAt = Date.now()
    let p = await fullmakt(live, a, principalId)
    while (p.delegation !== 'active' && Date.now() - decidedAt < 10_000) {
      await Bun.sleep(200)
      p = await fullmakt(live, a, principalId)
    }
    expect(p.delegation).toBe('active')
    expect(p.system_user_id).toMatch(/^[0-9a-f-]{36}$/)
    expect(Date.now() - decidedAt).toBeLessThan(10_000)
  } finally {
    await jobs.stop()
    await live.stop()
  }
}, 30_000)
