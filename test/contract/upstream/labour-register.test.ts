/**
 * NAV Aa-registeret's contract as the judge (contracts/nav-aareg/, the register's own GraphQL
 * schema and query): the query and variables Plikt sends are valid against the schema, and every
 * answer of the fixture server is what the schema lets the register answer to that query
 * (graphql-js executes the query against the schema over the fixture's data, checking every type
 * and non-null field). Errors are judged against the shape the register's error handler writes.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { parse, validate, type GraphQLSchema } from 'graphql'
import { aaregSchema, asTheSchemaAnswers } from '../../helpers.ts'
import { startFixtureServers, type FixtureServers } from '../../../fixtures/servers/index.ts'
import { fixedClock } from '../../../src/lib/clock.ts'
import {
  LABOUR_REGISTER_SCOPE,
  EMPLOYMENTS_QUERY,
  employmentsVariables,
} from '../../../src/upstream/labour-register/live.ts'
import { mapEmployments } from '../../../src/upstream/labour-register/map.ts'
import { PINNED_NOW } from '../../helpers.ts'
import { tokenService } from '../../helpers.ts'
import { contractText } from '../../helpers.ts'

let schema: GraphQLSchema
beforeAll(async () => {
  schema = await aaregSchema()
})

const judge = (query: string, variables: Record<string, unknown>, data: Record<string, unknown>) =>
  asTheSchemaAnswers(schema, query, variables, data)

describe('the schema judges', () => {
  test("the register's own query is valid against its schema", async () => {
    expect(validate(schema, parse(await contractText('nav-aareg/finnArbeidsforhold.graphql')))).toEqual([])
  })

  test('a query asking for a field the schema does not have is not', () => {
    expect(validate(schema, parse('query { finnArbeidsforhold { arbeidsforhold { antallAnsatte } } }')).length).toBe(1)
  })
})

describe('what Plikt sends', () => {
  test('the employments query is valid against the schema', () => {
    expect(validate(schema, parse(EMPLOYMENTS_QUERY))).toEqual([])
  })

  test('its variables coerce to the schema’s input type, under the key the register reads', async () => {
    const variables = employmentsVariables('993718807')
    expect(Object.keys(variables)).toEqual(['finnArbeidsforholdVariabler'])
    const result = await judge(EMPLOYMENTS_QUERY, variables, { finnArbeidsforhold: () => ({ arbeidsforhold: [] }) })
    expect(result.errors).toBeUndefined()
  })

  test('variables with a value outside an enum do not coerce (the check can fail)', async () => {
    const bad = {
      finnArbeidsforholdVariabler: {
        ...employmentsVariables('993718807').finnArbeidsforholdVariabler,
        arbeidsforholdstatus: ['NOE_ANNET'],
      },
    }
    const result = await judge(EMPLOYMENTS_QUERY, bad, { finnArbeidsforhold: () => ({ arbeidsforhold: [] }) })
    expect(result.errors?.length).toBe(1)
  })
})

describe('the fixture answers what the register can answer', () => {
  let fx: FixtureServers
  let token: string
  const clock = fixedClock(PINNED_NOW)
  beforeAll(async () => {
    fx = await startFixtureServers({ now: () => clock.now().getTime() })
    token = (await tokenService(fx, clock).token({ scope: LABOUR_REGISTER_SCOPE })).access_token
  })
  afterAll(() => fx.stop())

  const ask = async (variables: unknown, query = EMPLOYMENTS_QUERY) => {
    const res = await fetch(`${fx.labourRegisterUrl}/graphql`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ query, variables }),
    })
    expect(res.status).toBe(200)
    return (await res.json()) as {
      data?: { finnArbeidsforhold: Record<string, unknown> | null }
      errors?: Record<string, any>[]
    }
  }

  // A company with employees, one without, a deleted unit, a number outside the catalogue.
  for (const org of ['993718807', '920663109', '814702901', '912345678']) {
    test(`its answer for ${org} is the schema’s answer to the query over the same data`, async () => {
      const answer = await ask(employmentsVariables(org))
      expect(answer.errors).toBeUndefined()
      const judged = await judge(EMPLOYMENTS_QUERY, employmentsVariables(org), answer.data!)
      expect(judged.errors).toBeUndefined()
      expect(judged.data).toEqual(answer.data)
    })
  }

  test("its answer to the register's own full query is the schema's answer too", async () => {
    const query = await contractText('nav-aareg/finnArbeidsforhold.graphql')
    const variables = {
      finnArbeidsforholdVariabler: {
        opplysningspliktigId: '993718807',
        arbeidsforholdtype: ['ordinaertArbeidsforhold'],
        rapporteringsordning: ['A_ORDNINGEN'],
        arbeidsforholdstatus: ['AKTIV'],
      },
    }
    const answer = await ask(variables, query)
    expect(answer.errors).toBeUndefined()
    const judged = await judge(query, variables, answer.data!)
    expect(judged.errors ?? []).toEqual([])
  })

  test('people holding two employments are listed twice and counted once', async () => {
    const answer = await ask(employmentsVariables('993718807'))
    const list = answer.data!.finnArbeidsforhold!.arbeidsforhold as unknown[]
    expect(list.length).toBeGreaterThan(14)
    expect(mapEmployments(JSON.stringify(answer))).toEqual({ ok: true, count: 14 })
  })

  test('its errors carry errormessages[]{code, message, details} and classification, as the register’s error handler writes them', async () => {
    const answer = await ask({})
    expect(answer.data).toEqual({ finnArbeidsforhold: null })
    for (const e of answer.errors!) {
      expect(Object.keys(e.extensions).sort()).toEqual(['classification', 'errormessages'])
      expect(e.extensions.errormessages).toEqual([
        { code: expect.stringMatching(/^AA-\d{3}$/), message: expect.any(String), details: expect.anything() },
      ])
    }
    expect(mapEmployments(JSON.stringify(answer))).toEqual({
      ok: false,
      reason:
        'GraphQL errors: AA-200 (ValidationError), AA-201 (ValidationError), AA-202 (ValidationError), AA-203 (ValidationError)',
    })
  })
})
