/**
 * The labour register's live client against the Aa-registeret fixture over real HTTP: the count
 * of a known employer, an unknown one, what it asks for, and the failures.
 */
import { afterAll, afterEach, beforeAll, expect, test } from 'bun:test'
import { activeEmployees, employmentsOf } from '../../../fixtures/servers/labour-register.ts'
import { startFixtureServers, type FixtureServers } from '../../../fixtures/servers/index.ts'
import type { AppError } from '../../../src/errors/app-error.ts'
import { fixedClock } from '../../../src/lib/clock.ts'
import { UpstreamClient } from '../../../src/upstream/http.ts'
import {
  LABOUR_REGISTER_SCOPE,
  EMPLOYMENTS_QUERY,
  employmentsVariables,
  LiveLabourRegister,
} from '../../../src/upstream/labour-register/live.ts'
import { PINNED_NOW } from '../../helpers.ts'
import { addFault, clearFaults, FAST, tokenService } from '../../helpers.ts'

const clock = fixedClock(PINNED_NOW)
let fx: FixtureServers
let token: string
beforeAll(async () => {
  fx = await startFixtureServers({ now: () => clock.now().getTime() })
  token = (await tokenService(fx, clock).token({ scope: LABOUR_REGISTER_SCOPE })).access_token
})
afterAll(() => fx.stop())
afterEach(() => clearFaults(fx.labourRegisterUrl))

const register = () => new LiveLabourRegister(fx.labourRegisterUrl, new UpstreamClient('Aa-registeret', FAST, clock))
const failure = (p: Promise<unknown>) =>
  p.then(
    () => null,
    (e: unknown) => e as AppError,
  )

test('a known employer: its people, each counted once (14 people in 16 employments)', async () => {
  expect(activeEmployees('993718807')).toBe(14)
  expect(employmentsOf(14)).toBe(16)
  expect(await register().employeeCount('993718807', token)).toBe(14)
})

test('an employer with none registered: 0', async () => {
  expect(await register().employeeCount('920663109', token)).toBe(0)
})

test('a unit the register has nothing on (deleted from the business register): 0, as the register answers an empty list', async () => {
  expect(await register().employeeCount('814702901', token)).toBe(0)
})

test('the query asks for the employee identity only, and the register reads the variables by the key finnArbeidsforholdVariabler', async () => {
  expect(EMPLOYMENTS_QUERY).toContain('arbeidsforhold { arbeidstaker { ident } }')
  const ask = (variables: unknown) =>
    fetch(`${fx.labourRegisterUrl}/graphql`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ query: EMPLOYMENTS_QUERY, variables }),
    }).then((r) => r.json() as Promise<Record<string, any>>)
  const answer = await ask(employmentsVariables('993718807'))
  expect(Object.keys(answer.data.finnArbeidsforhold.arbeidsforhold[0])).toEqual(['arbeidstaker'])
  // Under another key the register finds no variables at all: no id, no sets.
  const misnamed = await ask({ variabler: employmentsVariables('993718807').finnArbeidsforholdVariabler })
  expect(misnamed.errors.map((e: any) => e.extensions.errormessages[0].code)).toEqual([
    'AA-200',
    'AA-201',
    'AA-202',
    'AA-203',
  ])
})

test('the fixture answers an enum value the register does not know with AA-207 naming the variable, as the register does', async () => {
  const res = await fetch(`${fx.labourRegisterUrl}/graphql`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: JSON.stringify({
      query: EMPLOYMENTS_QUERY,
      variables: {
        finnArbeidsforholdVariabler: {
          ...employmentsVariables('993718807').finnArbeidsforholdVariabler,
          arbeidsforholdstatus: ['NOE_ANNET'],
        },
      },
    }),
  })
  expect((await res.json()).errors[0].extensions).toEqual({
    errormessages: [{ code: 'AA-207', message: 'Validering av variabel feilet', details: 'arbeidsforholdstatus' }],
    classification: 'ValidationError',
  })
})

test("a token without the register's scope is refused: GOVERNMENT_API_ERROR with the status", async () => {
  const other = (await tokenService(fx, clock).token({ scope: 'skatteetaten:mvameldingvalidering' })).access_token
  const e = await failure(register().employeeCount('993718807', other))
  expect(e?.code).toBe('GOVERNMENT_API_ERROR')
  expect(e?.options.extra).toMatchObject({ upstream_status: 403 })
})

test('an unreadable answer is GOVERNMENT_API_ERROR (unreadable answer)', async () => {
  await addFault(fx.labourRegisterUrl, { match: '/graphql', mode: 'malformed' })
  const e = await failure(register().employeeCount('993718807', token))
  expect(e?.code).toBe('GOVERNMENT_API_ERROR')
  expect(e?.options.extra).toMatchObject({ reason: 'unreadable answer' })
})
