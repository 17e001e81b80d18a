/**
 * Maskinporten's system-user grant as the judge (contracts/maskinporten/): every grant Plikt signs
 * and every answer of the fixture token service pass the transcribed contract, which the
 * publisher's own documented grant and answer pass too; the documented answer reads through our
 * adapter as a person reads it.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { decodeJwt } from 'jose'
import { startFixtureServers, type FixtureServers } from '../../../fixtures/servers/index.ts'
import { fixedClock } from '../../../src/lib/clock.ts'
import { mapTokenResponse } from '../../../src/upstream/token-service/map.ts'
import { PINNED_NOW } from '../../helpers.ts'
import { approvedCompany, tokenService } from '../../helpers.ts'
import { jsonSchemaJudge } from '../../helpers.ts'
import { contractText } from '../../helpers.ts'

const CONTRACT = 'maskinporten/jwt-grant.schema.json'
let grantJudge: (v: unknown) => string[]
let answerJudge: (v: unknown) => string[]
beforeAll(async () => {
  grantJudge = await jsonSchemaJudge(CONTRACT, 'grant')
  answerJudge = await jsonSchemaJudge(CONTRACT, 'tokenResponse')
})

describe('the contract judges', () => {
  test("the publisher's documented grant and answer pass it", async () => {
    expect(grantJudge(JSON.parse(await contractText('maskinporten/examples/grant-systemuser.json')))).toEqual([])
    expect(answerJudge(JSON.parse(await contractText('maskinporten/examples/token-response.json')))).toEqual([])
  })

  test('a grant whose system-user entry has an unknown key, or a customer without the ISO 6523 prefix, does not', async () => {
    const doc = JSON.parse(await contractText('maskinporten/examples/grant-systemuser.json'))
    expect(
      grantJudge({ ...doc, authorization_details: [{ ...doc.authorization_details[0], external_ref: 'x' }] }),
    ).not.toEqual([])
    expect(
      grantJudge({
        ...doc,
        authorization_details: [
          { ...doc.authorization_details[0], systemuser_org: { authority: 'iso6523-actorid-upis', ID: '123456789' } },
        ],
      }),
    ).not.toEqual([])
  })

  test('the documented answer reads through our adapter: the token, its scope, and 599 s of life', async () => {
    const at = new Date(PINNED_NOW)
    expect(mapTokenResponse(await contractText('maskinporten/examples/token-response.json'), at)).toEqual({
      access_token: 'IxC0B76vlWl3fiQhAwZUmD0hr_PPwC9hSIXRdoUslPU=',
      scope: 'difitest:test1',
      expires_at: new Date(at.getTime() + 599_000),
    })
  })
})

describe('what Plikt sends and what the fixture answers, judged as they pass', () => {
  let fx: FixtureServers
  const clock = fixedClock(PINNED_NOW)
  const seen: { grant: Record<string, unknown>; answer: unknown; status: number }[] = []
  beforeAll(async () => {
    fx = await startFixtureServers({ now: () => clock.now().getTime() })
    fx.observe((system, e) => {
      if (system !== 'token-service' || e.path !== '/token') return
      const assertion = new URLSearchParams(e.requestBody).get('assertion') ?? ''
      seen.push({
        grant: decodeJwt(assertion) as Record<string, unknown>,
        answer: JSON.parse(e.responseBody),
        status: e.status,
      })
    })
  })
  afterAll(() => fx.stop())

  test('a plain client grant and a system-user grant naming the externalRef pass, and so do the answers', async () => {
    const tokens = tokenService(fx, clock)
    const systemUser = await approvedCompany(fx, tokens, clock, '923609016')
    seen.length = 0
    await tokens.token({ scope: 'altinn:instances.read altinn:instances.write', systemUser })
    await tokens.token({ scope: 'nav:aareg/v1/arbeidsforhold' })
    expect(seen).toHaveLength(2)
    for (const s of seen) {
      expect(grantJudge(s.grant)).toEqual([])
      expect(s.status).toBe(200)
      expect(answerJudge(s.answer)).toEqual([])
    }
    expect(seen[0]!.grant.authorization_details).toEqual([
      {
        type: 'urn:altinn:systemuser',
        systemuser_org: { authority: 'iso6523-actorid-upis', ID: '0192:923609016' },
        externalRef: systemUser.externalRef,
      },
    ])
  })
})
