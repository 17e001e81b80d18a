/**
 * The tax authority's live validation against the Skatteetaten fixture over real HTTP: the return
 * sent as XML with the raw token-service token, the verdict read back, and the failures.
 */
import { afterAll, afterEach, beforeAll, expect, test } from 'bun:test'
import { startFixtureServers, type FixtureServers } from '../../../fixtures/servers/index.ts'
import type { AppError } from '../../../src/errors/app-error.ts'
import { fixedClock } from '../../../src/lib/clock.ts'
import { UpstreamClient } from '../../../src/upstream/http.ts'
import { LiveTaxAuthority, MVA_VALIDATION_SCOPE } from '../../../src/upstream/tax-authority/live.ts'
import { PINNED_NOW } from '../../helpers.ts'
import { addFault, clearFaults, FAST, tokenService } from '../../helpers.ts'

const clock = fixedClock(PINNED_NOW)
let fx: FixtureServers
let token: string
beforeAll(async () => {
  fx = await startFixtureServers({ now: () => clock.now().getTime() })
  token = (await tokenService(fx, clock).token({ scope: MVA_VALIDATION_SCOPE })).access_token
})
afterAll(() => fx.stop())
afterEach(() => clearFaults(fx.taxAuthorityUrl))

const authority = () => new LiveTaxAuthority(fx.taxAuthorityUrl, new UpstreamClient('Skatteetaten', FAST, clock))
const validate = (payload: Record<string, unknown>, t = token) =>
  authority().validateVatReturn({ org_number: '984661185', period: '2026-T1', payload }, t)
const failure = (p: Promise<unknown>) =>
  p.then(
    () => null,
    (e: unknown) => e as AppError,
  )

test('a consistent return is read by the tax authority and has ingen avvik', async () => {
  expect(await validate({ total_revenue_nok: 125_000, output_vat_nok: 31_250, input_vat_nok: 4_000 })).toEqual({
    avvikVedMeldingslevering: 'ingen avvik',
    avvik: [],
  })
})

test('a return whose output VAT is not base × rate comes back ugyldig, naming the line', async () => {
  const v = await validate({ total_revenue_nok: 125_000, output_vat_nok: 1_000 })
  expect(v.avvikVedMeldingslevering).toBe('ugyldig skattemelding')
  expect(v.avvik[0]?.stiTilAvvik).toBe('//skattegrunnlagOgBeregnetSkatt/mvaSpesifikasjonslinje[1]')
})

test('a token without the validation scope is refused: GOVERNMENT_API_ERROR with the status', async () => {
  const other = (await tokenService(fx, clock).token({ scope: 'nav:aareg/v1/arbeidsforhold' })).access_token
  const e = await failure(validate({ total_revenue_nok: 1 }, other))
  expect(e?.code).toBe('GOVERNMENT_API_ERROR')
  expect(e?.options.extra).toMatchObject({ upstream_status: 403 })
})

test('an answer that is not a validation result is GOVERNMENT_API_ERROR (unreadable answer)', async () => {
  await addFault(fx.taxAuthorityUrl, { match: '/valider', mode: 'malformed' })
  const e = await failure(validate({ total_revenue_nok: 1 }))
  expect(e?.code).toBe('GOVERNMENT_API_ERROR')
  expect(e?.options.extra).toMatchObject({ reason: 'unreadable answer' })
})

test('a gateway that stays down is UPSTREAM_UNAVAILABLE after its attempts', async () => {
  await addFault(fx.taxAuthorityUrl, { match: '/valider', mode: 'status', status: 502 })
  expect((await failure(validate({ total_revenue_nok: 1 })))?.code).toBe('UPSTREAM_UNAVAILABLE')
})
