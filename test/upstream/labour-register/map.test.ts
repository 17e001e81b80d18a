/**
 * Aa-registeret's GraphQL answers → the number of people employed, or unreadable. The recorded
 * answers follow the register's schema (contracts/nav-aareg/) and, for errors, the shape its error
 * handler writes (AaregDistApiErrorHandler in navikt/aareg-dist-api: `errormessages` a list, or a
 * single object for AA-000, beside graphql-java's `classification`).
 */
import { expect, test } from 'bun:test'
import { mapEmployments } from '../../../src/upstream/labour-register/map.ts'

const read = (name: string) => Bun.file(`${import.meta.dir}/fixtures/${name}`).text()

test('people are counted once however many employments they hold', async () => {
  expect(mapEmployments(await read('finn-arbeidsforhold.json'))).toEqual({ ok: true, count: 2 })
})

test('an empty or null list is an employer with no employees', () => {
  expect(mapEmployments('{"data":{"finnArbeidsforhold":{"arbeidsforhold":[]}}}')).toEqual({ ok: true, count: 0 })
  expect(mapEmployments('{"data":{"finnArbeidsforhold":{"arbeidsforhold":null}}}')).toEqual({ ok: true, count: 0 })
})

test('an error names the register’s code and classification, from a list of errormessages', async () => {
  expect(mapEmployments(await read('error-ugyldig-input.json'))).toEqual({
    ok: false,
    reason: 'GraphQL errors: AA-201 (ValidationError)',
  })
})

test('an error names the register’s code when errormessages is a single object (AA-000)', async () => {
  expect(mapEmployments(await read('error-intern-feil.json'))).toEqual({
    ok: false,
    reason: 'GraphQL errors: AA-000 (ExecutionAborted)',
  })
})

test('a body that is not the GraphQL answer is not read', async () => {
  const full = await read('finn-arbeidsforhold.json')
  expect(mapEmployments(full.slice(0, 40)).ok).toBe(false)
  expect(mapEmployments('{"data":{}}').ok).toBe(false)
  expect(mapEmployments('{"data":{"finnArbeidsforhold":null}}').ok).toBe(false)
  expect(mapEmployments('{"data":{"finnArbeidsforhold":{"arbeidsforhold":[{"uuid":"x"}]}}}').ok).toBe(false)
})
