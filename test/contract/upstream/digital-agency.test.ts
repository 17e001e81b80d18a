/**
 * The digital agency's system-user API as the judge (contracts/altinn-authentication/): every
 * request body Plikt sends passes the agency's request model, every answer of the fixture passes
 * the agency's answer models (requests, system users, problems), and the publisher's documented
 * examples read through our adapter as a person reads them.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { startFixtureServers, type FixtureServers } from '../../../fixtures/servers/index.ts'
import { fixedClock } from '../../../src/lib/clock.ts'
import { mapSystemUserRequest } from '../../../src/upstream/digital-agency/map.ts'
import { PINNED_NOW } from '../../helpers.ts'
import { answerSystemUserRequest, digitalAgency, tokenService } from '../../helpers.ts'
import { jsonSchemaJudge } from '../../helpers.ts'
import { contractText } from '../../helpers.ts'

const CONTRACT = 'altinn-authentication/system-user-request.schema.json'

describe("the publisher's documented examples", () => {
  test('the documented answer to a request reads through our adapter: its id, reference, status and confirm URL', async () => {
    expect(
      mapSystemUserRequest(JSON.parse(await contractText('altinn-authentication/examples/request-response.json'))),
    ).toEqual({
      id: 'bb4955d4-6c44-4716-841c-911205dadade',
      externalRef: '314112938',
      systemId: '991825827_dhana_test_01',
      partyOrgNo: '314112938',
      accessPackages: [],
      status: 'New',
      confirmUrl:
        'https://am.ui.at22.altinn.cloud/accessmanagement/ui/systemuser/request?id=bb4955d4-6c44-4716-841c-911205dadade',
      redirectUrl: null,
      created: '',
    })
  })

  test('the documented agent request passes the request model (its lower-case accesspackages aside, which ASP.NET reads either way)', async () => {
    const judge = await jsonSchemaJudge(CONTRACT, 'createRequest')
    const doc = JSON.parse(await contractText('altinn-authentication/examples/agent-request.json'))
    const { accesspackages, ...rest } = doc
    expect(judge({ ...rest, accessPackages: accesspackages })).toEqual([])
    expect(judge(doc)).not.toEqual([])
  })
})

describe('what Plikt sends and what the fixture answers, judged as they pass', () => {
  let fx: FixtureServers
  const clock = fixedClock(PINNED_NOW)
  const exchanges: { method: string; path: string; status: number; body: string; answer: string }[] = []
  beforeAll(async () => {
    fx = await startFixtureServers({ now: () => clock.now().getTime() })
    fx.observe((system, e) => {
      if (system === 'filing-portal' && e.path.startsWith('/authentication/'))
        exchanges.push({
          method: e.method,
          path: e.path,
          status: e.status,
          body: e.requestBody,
          answer: e.responseBody,
        })
    })
  })
  afterAll(() => fx.stop())

  test('a request, its status, a repeat while open, acceptance, a repeat after it (AUTH-00004), the system user and an unknown id: every body and answer passes', async () => {
    const tokens = tokenService(fx, clock)
    const agency = digitalAgency(fx, tokens, clock)
    const create = await jsonSchemaJudge(CONTRACT, 'createRequest')
    const answer = await jsonSchemaJudge(CONTRACT, 'requestResponse')
    const systemUser = await jsonSchemaJudge(CONTRACT, 'systemUser')
    const problem = await jsonSchemaJudge(CONTRACT, 'problem')
    const ask = () =>
      agency.requestSystemUser({
        partyOrgNo: '923609016',
        externalRef: 'contract-ref-1',
        accessPackages: ['urn:altinn:accesspackage:merverdiavgift'],
        redirectUrl: 'https://plikt.example/fullmakt/returned',
      })
    const first = await ask()
    await agency.requestStatus(first.id)
    await ask()
    await answerSystemUserRequest(fx, first.id, 'Accepted')
    await ask()
    await agency.systemUser('923609016', 'contract-ref-1')
    await agency.requestStatus(crypto.randomUUID())

    const judged = exchanges.map((x) => {
      const errors: string[] = []
      if (x.method === 'POST') errors.push(...create(JSON.parse(x.body)).map((e) => `request body ${e}`))
      const json = JSON.parse(x.answer)
      const model = x.status >= 400 ? problem : x.path.includes('/vendor/byquery') ? systemUser : answer
      errors.push(...model(json).map((e) => `answer ${e}`))
      return [x.method, x.path.replace(/[0-9a-f-]{36}/, '{id}'), x.status, errors]
    })
    expect(judged).toEqual([
      ['POST', '/authentication/api/v1/systemuser/request/vendor', 201, []],
      ['GET', '/authentication/api/v1/systemuser/request/vendor/{id}', 200, []],
      ['POST', '/authentication/api/v1/systemuser/request/vendor', 200, []],
      ['POST', '/authentication/api/v1/systemuser/request/vendor', 400, []],
      [
        'GET',
        '/authentication/api/v1/systemuser/request/vendor/byexternalref/314159268_plikt/923609016/contract-ref-1',
        200,
        [],
      ],
      ['GET', '/authentication/api/v1/systemuser/vendor/byquery', 200, []],
      ['GET', '/authentication/api/v1/systemuser/request/vendor/{id}', 404, []],
    ])
    expect(JSON.parse(exchanges[3]!.answer).code).toBe('AUTH-00004')
  })
})
