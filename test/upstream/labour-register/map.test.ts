/**
 * Aa-registeret's GraphQL answers (the shape of its schema, finnArbeidsforhold) → an employment
 * count, unknown, or unreadable.
 */
import { expect, test } from 'bun:test'
import { mapEmployments } from '../../../src/upstream/labour-register/map.ts'

const read = (name: string) => Bun.file(`${import.meta.dir}/fixtures/${name}`).text()

test('the employments listed are counted', async () => {
  expect(mapEmployments(await read('finn-arbeidsforhold.json'))).toEqual({ ok: true, count: 3 })
})

test('an employer the register does not know (not_found) is unknown, not zero', async () => {
  expect(mapEmployments(await read('not-found.json'))).toEqual({ ok: true, count: null })
})

test('a null list is an employer with no employments', () => {
  expect(mapEmployments('{"data":{"finnArbeidsforhold":{"arbeidsforhold":null}}}')).toEqual({ ok: true, count: 0 })
})

test('any other GraphQL error is not an answer', async () => {
  expect(mapEmployments(await read('forbidden.json'))).toEqual({ ok: false, reason: 'GraphQL errors: forbidden' })
})

test('a body that is not the GraphQL answer is not read', async () => {
  const full = await read('finn-arbeidsforhold.json')
  expect(mapEmployments(full.slice(0, 40)).ok).toBe(false)
  expect(mapEmployments('{"data":{}}').ok).toBe(false)
  expect(mapEmployments('{"data":{"finnArbeidsforhold":{"arbeidsforhold":[1,2]}}}').ok).toBe(false)
})
