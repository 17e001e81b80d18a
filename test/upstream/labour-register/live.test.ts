/**
 * The labour register's live client against the Aa-registeret fixture over real HTTP: the count
 * of a known employer, an unknown one, what it asks for, and the failures.
 */
import { afterAll, afterEach, beforeAll, expect, test } from 'bun:test'
import { activeEmployments } from '../../../fixtures/servers/aareg.ts'
import { startFixtureServers, type FixtureServers } from '../../../fixtures/servers/index.ts'
import { AppError } from '../../../src/errors/app-error.ts'
import { fixedClock } from '../../../src/lib/clock.ts'
import { UpstreamClient } from '../../../src/upstream/http.ts'
import { AAREG_SCOPE, EMPLOYMENTS_QUERY, LiveLabourRegister } from '../../../src/upstream/labour-register/live.ts'
import { PINNED_NOW } from '../../helpers.ts'
import { addFault, clearFaults, FAST, tokenService } from '../government-fixtures.ts'

const clock = fixedClock(PINNED_NOW)
let fx: FixtureServers
let token: string
beforeAll(async () => {
  fx = await startFixtureServers({ now: () => clock.now().getTime() })
  token = (await tokenService(fx, clock).token({ scope: AAREG_SCOPE })).access_token
})
afterAll(() => fx.stop())
afterEach(() => clearFaults(fx.aaregUrl))

const register = () => new LiveLabourRegister(fx.aaregUrl, new UpstreamClient('Aa-registeret', FAST, clock))
const failure = (p: Promise<unknown>) => p.then(() => null, (e: unknown) => e as AppError)

test('a known employer: its active employments (the register has 14 for this company)', async () => {
  expect(activeEmployments('993718807')).toBe(14)
  expect(await register().employeeCount('993718807', token)).toBe(14)
})

test('an employer with none registered: 0', async () => {
  expect(await register().employeeCount('920663109', token)).toBe(0)
})

test('a unit the register does not know (deleted from the business register): null', async () => {
  expect(await register().employeeCount('814702901', token)).toBeNull()
})

test('the query asks for each employment\'s uuid only, so no employee identity comes back', async () => {
  expect(EMPLOYMENTS_QUERY).toContain('arbeidsforhold { uuid }')
  const res = await fetch(`${fx.aaregUrl}/graphql`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: JSON.stringify({ query: EMPLOYMENTS_QUERY, variables: { variabler: { opplysningspliktigId: '993718807', arbeidsforholdstatus: ['AKTIV'] } } }),
  })
  const text = await res.text()
  expect(text).not.toContain('arbeidstaker')
  expect(Object.keys(JSON.parse(text).data.finnArbeidsforhold.arbeidsforhold[0])).toEqual(['uuid'])
})

test('a token without the register\'s scope is refused: GOVERNMENT_API_ERROR with the status', async () => {
  const other = (await tokenService(fx, clock).token({ scope: 'skatteetaten:mvameldingvalidering' })).access_token
  const e = await failure(register().employeeCount('993718807', other))
  expect(e?.code).toBe('GOVERNMENT_API_ERROR')
  expect(e?.options.extra).toMatchObject({ upstream_status: 403 })
})

test('an unreadable answer is GOVERNMENT_API_ERROR (unreadable answer)', async () => {
  await addFault(fx.aaregUrl, { match: '/graphql', mode: 'malformed' })
  const e = await failure(register().employeeCount('993718807', token))
  expect(e?.code).toBe('GOVERNMENT_API_ERROR')
  expect(e?.options.extra).toMatchObject({ reason: 'unreadable answer' })
})
